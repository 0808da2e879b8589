/**
 * The build's media service: each file a page names is taken once per build (fetched through the API's
 * concurrency slots, checked, copied, its variants encoded), the page waiting only until the file's copy and
 * variant names are known, never for its encodes. At most MEDIA_FILES_IN_FLIGHT files are held between their
 * fetch and their last variant written. `finish()` waits for the encodes and writes the record.
 */
import { readFile } from 'node:fs/promises'
import type { LimitFunction } from 'p-limit'
import pLimit from 'p-limit'
import type { Dispatcher } from 'undici'
import { resolveInside } from '../build/output/write.js'
import type { CmsSource } from '../build/types.js'
import type { ResolvedSite } from '../config/types.js'
import { type MediaFileFailureKind, messageOf, WritingFailed } from '../errors.js'
import { MEDIA_FILES_IN_FLIGHT } from '../shared/constants.js'
import { toFileRef } from '../shared/file-refs.js'
import { MEDIA_RECORD_FILE } from '../shared/layout.js'
import type { LocalMedia } from '../shared/types.js'
import type { ShownIn } from './apply.js'
import { fetchFile } from './fetch.js'
import { declaredSize } from './header.js'
import { createImageProcess } from './image-process.js'
import { mediaHash, originalPath, safeFileName, variantBase, variantPath } from './names.js'
import { createMediaPolicy, extensionOf, type FileClass } from './policy.js'
import { entryPaths, type MediaEntry, serializeRecord } from './record.js'
import type { FileUse } from './scan.js'
import { claimedFormat, contentTypeAgrees, isAnimatedPng, sniffRaster } from './sniff.js'
import type { MediaAnswer, MediaMap, MediaStats } from './types.js'
import { FORMAT_EXTENSION, type OutputFormat, planVariants, type VariantPlan } from './variants.js'

/** The part of the build's FileWriter the service uses. */
export interface MediaWriter {
  /** The folder the new output is written into. */
  readonly root: string
  write(path: string, contents: Uint8Array | string): Promise<number>
  keep(path: string): boolean
  previousHash(path: string): string | undefined
}

export interface MediaServiceOptions {
  site: ResolvedSite
  writer: MediaWriter
  /** The output folder the build replaces: the previous output's files the writer keeps are there. */
  outDir: string
  apiSlot: LimitFunction
  /** The previous build's record (empty without one). */
  previous: ReadonlyMap<string, MediaEntry>
  /**
   * Asked once every page is built: undefined for a full build. For a partial one (`--only` over a previous
   * output), the files its pages name (references, shared/file-refs.ts), kept pages included: a file of the
   * previous record no page asked for stays when one of them names it (a kept page shows it), and goes with the
   * pages that no longer show it. `shown` undefined: every such file stays (a page names more files than the
   * state records).
   */
  partial(): { shown: ReadonlySet<string> | undefined } | undefined
  /**
   * References of files a file event named (`--only file:…`, shared/file-refs.ts): fetched again without
   * validators, as the CMS may answer a replaced file with the ETag or Last-Modified of the one before.
   */
  refetch: ReadonlySet<string>
  /**
   * Whether a page shows a file an event named. When none of the files it shows is one `refetch` names, the
   * file named is the original of one of them (a processed image's source), and all of them are fetched again.
   */
  refetchShownBy(page: string): boolean
  /**
   * A failure found after the page that showed the file was rendered (an image that encodes badly), with where
   * the page shows it (see MediaService.rendered); told in finish(), once every page is rendered.
   */
  onLateFailure(failure: { kind: MediaFileFailureKind; reason: string; path: string } & CmsSource): void
  signal?: AbortSignal
  dispatcher: Dispatcher
}

export interface MediaService {
  /** The answers for the files a page names (`from`: its path); those that stay links are left out. */
  resolve(uses: readonly FileUse[], from: string): Promise<MediaMap | undefined>
  /**
   * Where a page that resolve() answered shows its files, once rendered: `source` (its page uid) and the content
   * element of each file (`shownIn`), for a failure found after it (onLateFailure).
   */
  rendered(from: string, source: CmsSource, shownIn: ShownIn): void
  /**
   * Whether every file of the previous record that these references name (a kept page's files, PageTable.fileRefsOf)
   * is in the previous output as its build wrote it, its copy and variants: a page kept or rendered again from its
   * payload shows them where they were, so one whose file is missing or changed on disk is asked of the API again,
   * and its file taken again with it.
   */
  kept(refs: readonly string[]): boolean
  finish(): Promise<MediaStats>
  /** Stops what is still running (the build failed before finish()); finish() does it itself. */
  close(): Promise<void>
}

/**
 * A file a page names, with what the build takes it as; `fresh`: fetched without validators, whatever `refetch`
 * names (see MediaServiceOptions.refetchShownBy).
 */
type Use = FileUse & { kind: FileClass; fresh: boolean }

const failed = (kind: MediaFileFailureKind, reason: string) => ({ failed: kind, reason }) satisfies MediaAnswer

/** A file's answer in a build: a shown image needs its variants, so one asked for shown and as a share image only is taken twice. */
const answerKey = (shown: boolean, url: string): string => `${shown ? 'shown' : 'share'} ${url}`

function toLocal(entry: MediaEntry): MediaAnswer {
  const local: LocalMedia = {}
  if (entry.width !== undefined) local.width = entry.width
  if (entry.height !== undefined) local.height = entry.height
  const { variants } = entry
  if (variants)
    local.variants = {
      base: `/${variantBase(entry.hash, entry.name, variants.digest)}`,
      widths: [...variants.widths],
      formats: variants.formats.map((format) => FORMAT_EXTENSION[format]),
    }
  return { url: `/${originalPath(entry.hash, entry.name)}`, local }
}

/**
 * The previous entry of a file as a use of it takes it: a share image needs only the copy, so the entry of a file
 * a page showed is taken without its variants (they stay with the page that shows it, or go).
 */
function shareCopy(entry: MediaEntry | undefined, shown: boolean): MediaEntry | undefined {
  if (!entry?.variants || shown) return entry
  const { variants: _variants, ...copy } = entry
  return copy
}

export function createMediaService(options: MediaServiceOptions): MediaService {
  const { site, writer, previous } = options
  const { media } = site
  const policy = createMediaPolicy({ apiBaseUrl: site.api.baseUrl, hosts: media.hosts })
  const apiOrigin = new URL(site.api.baseUrl).origin
  const inFlight = pLimit(MEDIA_FILES_IN_FLIGHT)
  const images = createImageProcess()
  const answers = new Map<string, Promise<MediaAnswer>>()
  /** URLs asked for in this build. */
  const taken = new Set<string>()
  const work: Array<Promise<void>> = []
  const record = new Map<string, MediaEntry>()
  /**
   * The pages that asked for each shown file being taken, with where they show it (see rendered), for a failure
   * found once they were rendered.
   */
  const usersOf = new Map<string, Map<string, CmsSource>>()
  /** Shown files whose encode failed, with the pages that had asked for them then (see finish). */
  const failedLate = new Map<string, { answer: ReturnType<typeof failed>; users: Map<string, CmsSource> }>()
  const isNamed = (url: string): boolean => options.refetch.has(toFileRef(url, apiOrigin) ?? url)
  const stats: MediaStats = { files: 0, fetched: 0, notModified: 0, encodedImages: 0, variantsWritten: 0, encodeMs: 0 }

  /** The entry's files are all in the previous output and its variants are those the options ask for now. */
  const reusable = (entry: MediaEntry, kind: FileClass, shown: boolean): boolean => {
    if (entry.kind !== kind || entry.size > media.maxBytes) return false
    if ((entry.width ?? 0) * (entry.height ?? 0) > media.limitInputPixels) return false
    // a page lays an image out by its size as displayed, which only libvips read
    if (shown && entry.sizeFrom === 'header') return false
    if (kind === 'image' && media.mode === 'optimize' && shown) {
      const format = claimedFormat(extensionOf(entry.name))
      const plan =
        format && entry.width && entry.height && !entry.animated
          ? planVariants(entry.width, entry.height, format, media.widths)
          : undefined
      if (plan?.digest !== entry.variants?.digest) return false
    } else if (entry.variants) return false
    return entryPaths(entry).every((path) => writer.previousHash(path) !== undefined)
  }

  const keepAll = (entry: MediaEntry): boolean => entryPaths(entry).every((path) => writer.keep(path))

  /** The previous record's entries by file reference (shared/file-refs.ts), made at the first kept(). */
  let previousByRef: Map<string, MediaEntry[]> | undefined
  const entriesOf = (ref: string): readonly MediaEntry[] => {
    if (!previousByRef) {
      previousByRef = new Map()
      for (const entry of previous.values()) {
        const key = toFileRef(entry.url, apiOrigin)
        if (key === undefined) continue
        const list = previousByRef.get(key)
        if (list) list.push(entry)
        else previousByRef.set(key, [entry])
      }
    }
    return previousByRef.get(ref) ?? []
  }

  /** Where each original and variant this build placed is (see place): a path names its bytes, written once. */
  const placed = new Map<string, Promise<string>>()
  /**
   * Writes an original or a variant into the output, once; resolves to the absolute path of its bytes: the new
   * output's file, or, when the previous output has the same bytes and keeps its file (0 bytes written), that one.
   * An image is never empty (sniffRaster refused it), nor is a variant, so 0 bytes written means kept for every
   * file that is read again.
   */
  const place = (path: string, body: Uint8Array): Promise<string> => {
    let file = placed.get(path)
    if (!file) {
      file = writer.write(path, body).then((size) => resolveInside(size > 0 ? writer.root : options.outDir, path))
      placed.set(path, file)
    }
    return file
  }

  /** A variant file one encode wrote (`file`: the absolute path of its bytes, see place). */
  type Written = { width: number; format: OutputFormat; file: string }
  /**
   * Each encode, by content hash and variant options: the same bytes under another URL are encoded once, their
   * variants copied from the files of the first URL's (see take).
   */
  const encodes = new Map<string, Promise<{ base: string; written: Written[] }>>()

  /** Encodes an image's variants and writes them under `base`. */
  async function encodeInto(file: string, plan: VariantPlan, base: string) {
    const started = performance.now()
    try {
      const variants = await images.encode(file, plan, media.limitInputPixels)
      stats.encodedImages++
      const written: Written[] = []
      for (const { width, format, bytes } of variants) {
        written.push({ width, format, file: await place(variantPath(base, width, format), bytes) })
        stats.variantsWritten++
      }
      return { base, written }
    } finally {
      stats.encodeMs += performance.now() - started
    }
  }

  /**
   * Records an entry: that of a file a page shows (its size read by libvips, its variants) is not replaced by that
   * of the same file taken as a share image only, whichever came first.
   */
  const remember = (entry: MediaEntry, shown: boolean): void => {
    if (!shown && answers.has(answerKey(true, entry.url))) return
    record.set(entry.url, entry)
  }

  async function take(use: Use, from: string, announce: (answer: MediaAnswer) => void) {
    const { url, kind, shown } = use
    const before = shareCopy(previous.get(url), shown)
    const named = use.fresh || isNamed(url)
    const validators = before && !named && reusable(before, kind, shown) ? before : undefined
    const fetched = await options.apiSlot(() =>
      fetchFile(url, {
        timeoutMs: site.api.timeoutMs,
        maxBytes: media.maxBytes,
        etag: validators?.etag,
        lastModified: validators?.lastModified,
        headers: new URL(url).origin === apiOrigin ? { ...site.api.headers } : {},
        signal: options.signal,
        dispatcher: options.dispatcher,
      }),
    )
    if (fetched.type === 'failed') return announce(failed(fetched.kind, fetched.reason))
    if (fetched.type === 'unchanged' && validators && keepAll(validators)) {
      stats.notModified++
      // the copy as it was, with the validators the 304 sent (those a fresh build's request gets)
      const { type: _unchanged, ...now } = fetched
      const entry = { ...validators, ...now }
      remember(entry, shown)
      return announce(toLocal(entry))
    }
    if (fetched.type !== 'body')
      return announce(failed('MEDIA_HTTP', `the file answered 304 to a request without validators (GET ${url})`))
    stats.fetched++
    const { body } = fetched
    const hash = mediaHash(body)
    const name = safeFileName(url)
    const entry: MediaEntry = { url, hash, name, size: body.byteLength, kind }
    if (fetched.etag) entry.etag = fetched.etag
    if (fetched.lastModified) entry.lastModified = fetched.lastModified
    let format: ReturnType<typeof sniffRaster>
    if (kind === 'image') {
      const claimed = claimedFormat(extensionOf(name))
      format = sniffRaster(body)
      // bytes that are what the name says, sent as another image type: the Content-Type is what lies
      if (format && format === claimed && !contentTypeAgrees(fetched.contentType, format))
        return announce(
          failed(
            'MEDIA_TYPE_MISMATCH',
            `the file's bytes are ${format}, as its name says, but it was sent as Content-Type ${fetched.contentType?.slice(0, 60)} (GET ${url})`,
          ),
        )
      if (!format || format !== claimed || !contentTypeAgrees(fetched.contentType, format))
        return announce(
          failed(
            'MEDIA_TYPE_MISMATCH',
            `the file claims to be ${claimed ?? 'an image'} (its name${fetched.contentType ? `, Content-Type ${fetched.contentType.slice(0, 60)}` : ''}) but its bytes are ${format ?? 'no image format the build reads'} (GET ${url})`,
          ),
        )
    }
    // the copy goes into the output first: the image process reads the image from it
    const file = await place(originalPath(hash, name), body)
    if (format) {
      try {
        // a share image is only copied: its header is enough for the limit (header.ts)
        const declared = shown ? undefined : declaredSize(body, format)
        const { width, height, animated } = declared ?? (await images.probe(file))
        if (width * height > media.limitInputPixels)
          return announce(
            failed(
              'MEDIA_PIXEL_LIMIT',
              `the image is ${width}x${height} pixels, over the limit of ${media.limitInputPixels} (media.limitInputPixels): a decompression bomb or an upload to scale down (GET ${url})`,
            ),
          )
        entry.width = width
        entry.height = height
        if (declared) entry.sizeFrom = 'header'
        if (animated || (format === 'png' && !declared && isAnimatedPng(body))) entry.animated = true
      } catch (error) {
        return announce(failed('MEDIA_ENCODE_FAILED', `the image cannot be read: ${messageOf(error)} (GET ${url})`))
      }
      if (media.mode === 'optimize' && shown && !entry.animated)
        entry.variants = planVariants(entry.width, entry.height, format, media.widths)
    }
    remember(entry, shown)
    announce(toLocal(entry))
    const plan = entry.variants
    if (!plan) return
    const base = variantBase(hash, name, plan.digest)
    const paths = plan.widths.flatMap((width) => plan.formats.map((format) => variantPath(base, width, format)))
    // the same bytes and options as a file the previous output has: its variants are kept, not encoded again
    if (paths.every((path) => writer.previousHash(path) !== undefined) && paths.every((path) => writer.keep(path)))
      return
    try {
      const key = `${hash} ${plan.digest}`
      let encode = encodes.get(key)
      if (!encode) {
        encode = encodeInto(file, plan, base)
        encodes.set(key, encode)
      }
      const first = await encode
      // the same bytes encoded for another URL: its variants, under this URL's names
      if (first.base !== base)
        for (const { width, format, file } of first.written) {
          await writer.write(variantPath(base, width, format), await readFile(file))
          stats.variantsWritten++
        }
    } catch (error) {
      record.delete(url)
      const answer =
        // a write the disk refused (a full disk) fails the file as WRITE_FAILED, whichever step wrote it
        error instanceof WritingFailed
          ? failed('WRITE_FAILED', `${error.message} (GET ${url})`)
          : failed('MEDIA_ENCODE_FAILED', `the image cannot be encoded: ${messageOf(error)} (GET ${url})`)
      // every page showing it fails: those that asked so far in finish(), those asking later at once (resolve)
      failedLate.set(url, { answer, users: usersOf.get(url) ?? new Map([[from, {}]]) })
    }
  }

  function answerFor(use: Use, from: string): Promise<MediaAnswer> {
    const { url } = use
    const key = answerKey(use.shown, url)
    const known = answers.get(key)
    if (known) return known
    stats.files++
    let announce!: (answer: MediaAnswer) => void
    const answer = new Promise<MediaAnswer>((done) => {
      announce = done
    })
    answers.set(key, answer)
    taken.add(url)
    // the pages showing the file while it is taken (resolve adds them), for a failure found after they rendered
    if (use.shown) usersOf.set(url, new Map())
    const done = inFlight(() => take(use, from, announce))
      .catch((error: unknown) =>
        announce(
          failed(error instanceof WritingFailed ? 'WRITE_FAILED' : 'MEDIA_NETWORK', `${messageOf(error)} (GET ${url})`),
        ),
      )
      .finally(() => {
        if (use.shown) usersOf.delete(url)
      })
    // a task that ends without an answer (it cannot: each path announces) must not leave a page waiting
    work.push(done.then(() => announce(failed('MEDIA_ENCODE_FAILED', `no answer for ${url}`))))
    return answer
  }

  return {
    async resolve(uses, from) {
      // a page matched by the original of a file it shows: which file that is, only the CMS knows
      const fresh = options.refetchShownBy(from) && !uses.some((use) => isNamed(use.url))
      const wanted = uses.flatMap((use): Use[] => {
        const kind = policy.classify(use.url)
        return kind ? [{ ...use, kind, shown: use.shown && kind === 'image', fresh }] : []
      })
      if (wanted.length === 0) return undefined
      const map: MediaMap = {}
      const answered = wanted.map(async (use) => {
        const answer = answerFor(use, from)
        // a shown file that failed to encode fails this page as any bad file does; one that may yet fail, later
        const late = use.shown ? failedLate.get(use.url) : undefined
        if (use.shown && !late) usersOf.get(use.url)?.set(from, {})
        map[use.url] = late?.answer ?? (await answer)
      })
      await Promise.all(answered)
      return map
    },
    rendered(from, source, shownIn) {
      for (const [url, elementUid] of shownIn) {
        const users = usersOf.get(url) ?? failedLate.get(url)?.users
        if (users?.has(from)) users.set(from, elementUid === undefined ? source : { ...source, elementUid })
      }
    },
    kept(refs) {
      return refs.every((ref) =>
        entriesOf(ref).every((entry) => entryPaths(entry).every((path) => writer.previousHash(path) !== undefined)),
      )
    },
    async finish() {
      await Promise.all(work)
      for (const { answer, users } of failedLate.values())
        for (const [path, source] of users)
          options.onLateFailure({ kind: answer.failed, reason: answer.reason, path, ...source })
      await images.close()
      const partial = options.partial()
      const shown = (url: string) => partial?.shown?.has(toFileRef(url, apiOrigin) ?? url) ?? true
      // a file a page asked again only shares (taken without its variants, see shareCopy) that a kept page shows:
      // that page's variants stay, and its entry with them, as a full build has it
      const sharedOnly = (url: string, entry: MediaEntry) =>
        entry.variants !== undefined && !answers.has(answerKey(true, url)) && record.get(url)?.hash === entry.hash
      if (partial)
        for (const [url, entry] of previous)
          if ((!taken.has(url) || sharedOnly(url, entry)) && shown(url) && keepAll(entry)) record.set(url, entry)
      await writer.write(MEDIA_RECORD_FILE, serializeRecord(record.values(), apiOrigin))
      return { ...stats, encodeMs: Math.round(stats.encodeMs) }
    },
    close: () => images.close(),
  }
}
