/**
 * The build's media stage: a MediaService when `media` is `'copy'` or `'optimize'` (none under `'link'`),
 * reading the previous output's record first when there is a usable previous output and the record is as its
 * build wrote it.
 */
import type { LimitFunction } from 'p-limit'
import type { Dispatcher } from 'undici'
import type { PreviousFiles } from '../build/output/write.js'
import type { ResolvedSite } from '../config/types.js'
import { MEDIA_RECORD_FILE } from '../shared/layout.js'
import { readMediaRecord } from './record.js'
import { createMediaService, type MediaService, type MediaServiceOptions, type MediaWriter } from './service.js'

export async function startMedia(input: {
  site: ResolvedSite
  writer: MediaWriter
  apiSlot: LimitFunction
  outDir: string
  /** The previous output, when it is usable: its record is read when it is on disk as its build wrote it. */
  previous: Pick<PreviousFiles, 'hashOf'> | undefined
  /** Asked at the end: whether the build was a partial one, and the files its pages name (see MediaServiceOptions.partial). */
  partial: MediaServiceOptions['partial']
  /** References of files a file event named (shared/file-refs.ts): fetched again without validators. */
  refetch?: ReadonlySet<string>
  /** Pages whose files are all fetched again without validators (MediaServiceOptions.refetchShownBy). */
  refetchShownBy?: (page: string) => boolean
  fail: MediaServiceOptions['onLateFailure']
  signal?: AbortSignal
  dispatcher: Dispatcher
}): Promise<MediaService | undefined> {
  if (input.site.media.mode === 'link') return undefined
  // a record changed since (its hash is not the one the state records) could name another file's copy for a URL
  const previous =
    input.previous?.hashOf(MEDIA_RECORD_FILE) !== undefined
      ? await readMediaRecord(input.outDir, new URL(input.site.api.baseUrl).origin)
      : new Map()
  return createMediaService({
    site: input.site,
    writer: input.writer,
    outDir: input.outDir,
    apiSlot: input.apiSlot,
    previous,
    partial: input.partial,
    refetch: input.refetch ?? new Set(),
    refetchShownBy: input.refetchShownBy ?? (() => false),
    onLateFailure: input.fail,
    signal: input.signal,
    dispatcher: input.dispatcher,
  })
}
