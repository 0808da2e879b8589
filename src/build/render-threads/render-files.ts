/**
 * Pure apart from the render core: a page (or an error page) in, the files that represent it
 * out, through the one page assembly (src/render/assemble.ts). Nothing is written here.
 */
import { type AssembledPage, assemblePage, type PageView } from '../../render/assemble.js'
import { sharedDocumentParts } from '../../render/document.js'
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

/** Parts at least this long are looked up among the shared ones (shorter ones are encoded as they come). */
const SHARED_PART_MIN_LENGTH = 1024
/** Each bundle's shared document parts with their UTF-8 bytes, encoded once. */
const sharedBytes = new WeakMap<readonly string[], ReadonlyArray<readonly [string, Uint8Array]>>()

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
 * Example: (['<p>', 'ż', '</p>'], []) -> the bytes of '<p>ż</p>'.
 */
export function encodeDocument(parts: readonly string[], shared: readonly string[], room = ownRoom): Uint8Array {
  let known = sharedBytes.get(shared)
  if (!known) {
    known = shared.map((part) => [part, Buffer.from(part)] as const)
    sharedBytes.set(shared, known)
  }
  const encoded = parts.map(
    (part) => (part.length >= SHARED_PART_MIN_LENGTH && known.find(([text]) => text === part)?.[1]) || part,
  )
  return encodeParts(encoded, room)
}

/** A document's bytes for the files of a build with these assets. */
export const documentBytes = (ctx: RenderContext, document: readonly string[]): Uint8Array =>
  encodeDocument(document, sharedDocumentParts(ctx.assets), ctx.room)

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
      { path: toPayloadFile(input.path), contents: encodeText(payload ?? [], ctx.room) },
    ],
    problems,
    fallbacks,
  }
}
