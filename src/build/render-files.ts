/**
 * Pure apart from the render core: a page (or an error page) in, the files that represent it
 * out, through the one page assembly (src/render/assemble.ts). Nothing is written here.
 */
import { type AssembledPage, assemblePage, type PageView } from '../render/assemble.js'
import { sharedDocumentParts } from '../render/document.js'
import type { PageRenderer } from '../render/renderer.js'
import type { ClientAssets, DataProblem, PublicSiteInfo, TemplateFallback } from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import { toHtmlFile, toPayloadFile } from '../shared/url.js'
import type { LocaleData } from './types.js'

/** What every render of one build shares. */
export interface RenderContext {
  renderer: PageRenderer
  site: PublicSiteInfo
  /** The version of the client code (a hash of the client bundle's files): the same in every build with the same templates. */
  clientVersion: string
  assets: ClientAssets
  /**
   * Where a page's document is encoded: room of `size` bytes (a render worker's byte ring, see
   * render-worker.ts). Without it, a buffer of its own.
   */
  allocate?: (size: number) => Uint8Array
}

export interface OutputFile {
  path: string
  /** Text, or its UTF-8 bytes (how render workers hand files over without a copy). */
  contents: string | Uint8Array
  /** The content hash of the bytes (see hashContents), when the render worker computed it. */
  hash?: string
}

/** A page file as a render job hands it over: or only its hash, when its bytes are the previous output's. */
export type PageFile = OutputFile | { path: string; hash: string; contents?: undefined }

/** Parts at least this long are looked up among the shared ones (shorter ones are encoded as they come). */
const SHARED_PART_MIN_LENGTH = 1024
/** Each bundle's shared document parts with their UTF-8 bytes, encoded once. */
const sharedBytes = new WeakMap<readonly string[], ReadonlyArray<readonly [string, Uint8Array]>>()

/** A buffer of its own, which a render worker can transfer. */
const ownBuffer = (size: number): Uint8Array => Buffer.allocUnsafeSlow(size)

/**
 * A document's UTF-8 bytes (renderDocumentParts), in the room `allocate` gives (a buffer of its own by
 * default). The parts every page shares (its inline styles: 30 KB on the demo site) are copied from
 * their one encoding: no page joins them into its text and encodes them again.
 * Example: (['<p>', 'ż', '</p>'], []) -> the bytes of '<p>ż</p>'.
 */
export function encodeDocument(
  parts: readonly string[],
  shared: readonly string[],
  allocate: (size: number) => Uint8Array = ownBuffer,
): Uint8Array {
  let known = sharedBytes.get(shared)
  if (!known) {
    known = shared.map((part) => [part, Buffer.from(part)] as const)
    sharedBytes.set(shared, known)
  }
  const encoded = parts.map(
    (part) => (part.length >= SHARED_PART_MIN_LENGTH && known.find(([text]) => text === part)?.[1]) || part,
  )
  const sizes = encoded.map((part) => (typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength))
  const room = allocate(sizes.reduce((sum, size) => sum + size, 0))
  const bytes = Buffer.from(room.buffer, room.byteOffset, room.byteLength)
  let offset = 0
  encoded.forEach((part, i) => {
    if (typeof part === 'string') bytes.write(part, offset)
    else bytes.set(part, offset)
    offset += sizes[i]!
  })
  return room
}

/** A document's bytes for the files of a build with these assets. */
export const documentBytes = (ctx: RenderContext, document: readonly string[]): Uint8Array =>
  encodeDocument(document, sharedDocumentParts(ctx.assets), ctx.allocate)

/** A build's page, as a static page: initial data referenced by its once-per-locale file. */
export function assembleStatic(
  ctx: RenderContext,
  view: Omit<PageView, 'initialData' | 'initialDataUrl' | 'locale'> & { locale: LocaleData },
): AssembledPage {
  const { locale, ...rest } = view
  return assemblePage(
    { renderer: ctx.renderer, mode: 'static', site: ctx.site, clientVersion: ctx.clientVersion, assets: ctx.assets },
    { ...rest, locale: locale.locale, initialData: locale.initialData, initialDataUrl: locale.initialDataUrl },
  )
}

/** `index.html` and `_payload.json` of a page at `path`. */
export function renderPageFiles(
  ctx: RenderContext,
  input: { path: string; locale: LocaleData; page: PageData },
): { files: OutputFile[]; problems: DataProblem[]; fallbacks: TemplateFallback[] } {
  const { document, payload, problems, fallbacks } = assembleStatic(ctx, { ...input, status: 200 })
  return {
    files: [
      { path: toHtmlFile(input.path), contents: documentBytes(ctx, document) },
      { path: toPayloadFile(input.path), contents: payload ?? '' },
    ],
    problems,
    fallbacks,
  }
}
