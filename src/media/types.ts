/** What the build's thread tells a render worker of a page's files (plain data, posted with the page's job). */
import type { MediaFileFailureKind } from '../errors.js'
import type { LocalMedia } from '../shared/types.js'

/** One file a page names: its copy in the output, or why the build could not take it. */
export type MediaAnswer = { url: string; local: LocalMedia } | { failed: MediaFileFailureKind; reason: string }

/** A page's files by the URL the API names them with (those that stay links are not in it). */
export type MediaMap = Record<string, MediaAnswer>

/** What a build did with media, for its result and the bench. */
export interface MediaStats {
  /** Files the build took (each once). */
  files: number
  /** Requests that got a body, and those answered 304 Not Modified. */
  fetched: number
  notModified: number
  /** Images whose variants were encoded, and variant files written. */
  encodedImages: number
  variantsWritten: number
  /** Time spent encoding, summed over files (they overlap). */
  encodeMs: number
}
