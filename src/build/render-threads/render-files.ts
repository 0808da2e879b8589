/**
 * Pure apart from the render core: a page (or an error page) in, the files that represent it
 * out, through the one page assembly (src/render/assemble.ts). Nothing is written here.
 */
import { type AssembledPage, assemblePage, type PageView } from '../../render/assemble.js'
import { createDocumentShell, type DocumentPart, type DocumentShell } from '../../render/document.js'
import type { PageRenderer } from '../../render/renderer.js'
import type { ClientAssets, DataProblem, PublicSiteInfo, TemplateFallback } from '../../shared/contract.js'
import type { PageData } from '../../shared/types.js'
import { toHtmlFile, toPayloadFile } from '../../shared/url.js'
import type { LocaleData } from '../types.js'

/** What every render of one build shares. */
export interface RenderContext {
  renderer: PageRenderer
  site: PublicSiteInfo
  /** The version of the client code (a hash of the client bundle's files): the same in every build with the same templates. */
  clientVersion: string
  assets: ClientAssets
  /** The document parts every page shares (createDocumentShell(assets)): encoded once, copied into each page. */
  shell: DocumentShell
  /** Where a page's files are encoded (a render worker's byte ring, see render-worker.ts); buffers of their own without it. */
  room?: ByteRoom
}

/**
 * Room for encoded bytes: `write` fills the start of room for at most `maxBytes` and says how many it
 * wrote; what comes back is those bytes. A text's UTF-8 length is not known before it is encoded (and
 * counting it costs nearly what encoding does), only its most: 3 bytes a UTF-16 unit.
 */
export type ByteRoom = (maxBytes: number, write: (room: Uint8Array) => number) => Uint8Array

export interface OutputFile {
  path: string
  /** Text, or its UTF-8 bytes (how render workers hand files over without a copy). */
  contents: string | Uint8Array
  /** The content hash of the bytes (see hashContents), when the render worker computed it. */
  hash?: string
}

/** A page file as a render job hands it over: or only its hash, when its bytes are the previous output's. */
export type PageFile = OutputFile | { path: string; hash: string; contents?: undefined }

/** Bytes in a buffer of their own (which a render worker can transfer), as long as they are. */
export const ownRoom: ByteRoom = (maxBytes, write) => {
  const room = Buffer.allocUnsafeSlow(maxBytes)
  const used = write(room)
  return used === maxBytes ? room : new Uint8Array(room.subarray(0, used))
}

/** The most UTF-8 bytes a text of `length` UTF-16 units takes. */
const MAX_UTF8_BYTES_PER_UNIT = 3

/** A Buffer over the same memory, to write text into. */
const bufferOf = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** The UTF-8 bytes of text parts (and of parts encoded already) one after another, in `room`. */
function encodeParts(parts: ReadonlyArray<string | Uint8Array>, room: ByteRoom): Uint8Array {
  let maxBytes = 0
  for (const part of parts)
    maxBytes += typeof part === 'string' ? part.length * MAX_UTF8_BYTES_PER_UNIT : part.byteLength
  return room(maxBytes, (into) => {
    const bytes = bufferOf(into)
    let offset = 0
    for (const part of parts) {
      if (typeof part === 'string') offset += bytes.write(part, offset)
      else {
        bytes.set(part, offset)
        offset += part.byteLength
      }
    }
    return offset
  })
}

/** The UTF-8 bytes of the text that `parts` make together, in `room`. Example: (['{"a":', '"ż"', '}']) -> the bytes of '{"a":"ż"}'. */
export const encodeText = (parts: readonly string[], room: ByteRoom = ownRoom): Uint8Array => encodeParts(parts, room)

/**
 * A document's UTF-8 bytes (renderDocumentParts), in `room`. The parts every page shares (its inline
 * styles: 30 KB on the demo site) are copied from their one encoding: no page joins them into its text
 * and encodes them again.
 * Example: (['<p>', 'ż', '</p>']) -> the bytes of '<p>ż</p>'.
 */
export const encodeDocument = (parts: readonly DocumentPart[], room = ownRoom): Uint8Array =>
  encodeParts(
    parts.map((part) => (typeof part === 'string' ? part : part.shared)),
    room,
  )

/** A document's bytes for the files of a build. */
export const documentBytes = (ctx: RenderContext, document: readonly DocumentPart[]): Uint8Array =>
  encodeDocument(document, ctx.room)

/** A build's render context over `shared` (what the build's thread sends) and the templates' renderer. */
export const createRenderContext = <T extends Omit<RenderContext, 'renderer' | 'shell'>>(
  shared: T,
  renderer: PageRenderer,
): T & Pick<RenderContext, 'renderer' | 'shell'> => ({ ...shared, renderer, shell: createDocumentShell(shared.assets) })

/** A build's page, as a static page: initial data referenced by its once-per-locale file. */
export function assembleStatic(
  ctx: RenderContext,
  view: Omit<PageView, 'initialData' | 'initialDataUrl' | 'locale'> & { locale: LocaleData },
): AssembledPage {
  const { locale, ...rest } = view
  return assemblePage(
    {
      renderer: ctx.renderer,
      mode: 'static',
      site: ctx.site,
      clientVersion: ctx.clientVersion,
      assets: ctx.assets,
      shell: ctx.shell,
    },
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
      { path: toPayloadFile(input.path), contents: encodeText(payload ?? [], ctx.room) },
    ],
    problems,
    fallbacks,
  }
}
