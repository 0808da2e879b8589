/**
 * The publisher's durable journal: JSON Lines appended to `journal.jsonl` in the state folder, each
 * append on disk (fdatasync) before the webhook that brought it is answered 202. Lines: an event
 * `{"e":SEQ,"at":MS,"pages":[...]}` or `{"e":SEQ,"at":MS,"full":1}`, and `{"done":SEQ}` once every event
 * up to SEQ is live. Appends that arrive together share one write and one sync. A failed write (disk
 * full) is cut off again, so the file never holds a torn line. Compaction rewrites the file with only
 * what is still pending (temporary file, sync, rename). After a crash, `open` replays it: every event
 * after the last `done` is pending again; a torn last line (a crash mid-write, never acknowledged) is cut off.
 */
import { constants } from 'node:fs'
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isOnlyItem } from '../build/incremental/reuse.js'
import { errors } from '../errors.js'
import { PUBLISH_MAX_QUEUED_APPENDS } from '../shared/constants.js'
import { isRecord } from '../shared/values.js'

/** A recorded event: what to publish, since when. */
export interface JournalEvent {
  seq: number
  /** When it was accepted (ms since the epoch): a publish's latency counts from its first event. */
  at: number
  pages?: string[]
  full?: boolean
}

export interface Journal {
  readonly file: string
  /** Events of an earlier run that were not live yet, oldest first. */
  readonly recovered: JournalEvent[]
  /** Appends waiting for their sync. */
  queued(): number
  /** True since the last write failed (disk full), until one succeeds. */
  failing(): boolean
  /**
   * Tries a write that changes nothing (the mark of what is live, as it is) when the last one failed: with no event
   * coming (a proxy that stops sending on 503), nothing else would find out that the disk has room again. Calls made
   * while a try runs share it.
   */
  retry(): Promise<void>
  /** Records an event; resolves once it is on disk. Rejects with PUBLISH_JOURNAL (status 503) when it cannot be written, 429 when too many wait. */
  append(event: Omit<JournalEvent, 'seq'>): Promise<JournalEvent>
  /** Records that every event up to `seq` is live. */
  markDone(seq: number): Promise<void>
  /**
   * Rewrites the file with only the events `pending()` gives (those not live yet, possibly merged) when it
   * has grown past `minBytes`. `pending` is asked when the rewrite runs, after every write queued before it:
   * each event acknowledged by then has reached `onRecorded`.
   */
  compact(pending: () => readonly JournalEvent[], minBytes: number): Promise<void>
  size(): number
  close(): Promise<void>
}

export const JOURNAL_FILE = 'journal.jsonl'

/** How the journal (and its compaction's temporary file) is opened: never through a symbolic link. */
const OPEN_JOURNAL = constants.O_RDWR | constants.O_NOFOLLOW

const eventLine = (e: JournalEvent): string =>
  `${JSON.stringify(e.full ? { e: e.seq, at: e.at, full: 1 } : { e: e.seq, at: e.at, pages: e.pages ?? [] })}\n`

/**
 * Whether a number read back is a sequence number this journal can have written. One far beyond any count (1e300,
 * 2^53) would stop `++seq` from counting: every later event would get a number its `done` already covers, and be
 * dropped at the next start; such a line (and a negative one) is skipped as one that does not parse.
 */
const isSeq = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= MAX_SEQ
/** 2^50: a million events a second for 35 years, and far from where adding one to a number stops counting. */
const MAX_SEQ = 2 ** 50

/** The events of a journal's text not yet live; lines that do not parse (a torn last line) are skipped. */
export function replayJournal(text: string): { pending: JournalEvent[]; lastSeq: number; done: number } {
  const events: JournalEvent[] = []
  let done = 0
  let lastSeq = 0
  for (const line of text.split('\n')) {
    let value: unknown
    try {
      value = line ? JSON.parse(line) : undefined
    } catch {
      continue
    }
    if (!isRecord(value)) continue
    if (isSeq(value.done)) done = Math.max(done, value.done)
    else if (isSeq(value.e) && Number.isFinite(value.at)) {
      // an item no build reads (the journal is a file on disk, untrusted) is dropped, not retried for ever
      const pages = Array.isArray(value.pages) ? value.pages.filter(isOnlyItem) : []
      events.push({ seq: value.e, at: value.at as number, ...(value.full ? { full: true } : { pages }) })
      lastSeq = Math.max(lastSeq, value.e)
    }
  }
  return { pending: events.filter((e) => e.seq > done), lastSeq: Math.max(lastSeq, done), done }
}

type Waiting = { line: string; event?: JournalEvent; resolve: () => void; reject: (error: unknown) => void }

/**
 * Opens (creates) the journal in `dir`. `onRecorded` hears each event once it is on disk, before its
 * `append` resolves, in the order of their sequence numbers.
 */
export async function openJournal(dir: string, onRecorded: (event: JournalEvent) => void): Promise<Journal> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, JOURNAL_FILE)
  // the file is untrusted: never through a link (out of the folder), never waiting on a FIFO, only a regular file
  let handle: FileHandle = await open(file, OPEN_JOURNAL | constants.O_CREAT | constants.O_NONBLOCK, 0o600).catch(
    (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ELOOP' ? 'it is a symbolic link' : error.message
      throw errors.publishJournal(file, `cannot be opened: ${why}`, error)
    },
  )
  const bytes = await (async () => {
    if (!(await handle.stat()).isFile()) throw new Error('it is not a regular file')
    return handle.readFile()
  })().catch(async (error: Error) => {
    await handle.close()
    throw errors.publishJournal(file, `cannot be read: ${error.message}`, error)
  })
  // a torn last line (a crash mid-write, never acknowledged) is cut off: the next append would go on from it,
  // and the event it acknowledges would be part of a line that does not parse, lost at the next start
  const whole = bytes.lastIndexOf(0x0a) + 1
  const { pending: recovered, lastSeq, done: lastDone } = replayJournal(bytes.subarray(0, whole).toString('utf8'))
  let done = lastDone
  if (whole < bytes.length) await handle.truncate(whole)
  let size = whole
  let seq = lastSeq
  let batch: Waiting[] = []
  let flushing = false
  let failing = false
  /** The try `retry` started, while it runs: every health check asking meanwhile waits on it, not on one more write. */
  let retrying: Promise<void> | undefined
  // every write, sync and compaction runs one after the other on this chain
  let chain: Promise<void> = Promise.resolve()
  const serial = (op: () => Promise<void>): Promise<void> => {
    const run = chain.then(op)
    chain = run.catch(() => {})
    return run
  }

  const flush = async () => {
    flushing = false
    const items = batch
    batch = []
    const bytes = Buffer.from(items.map((i) => i.line).join(''))
    try {
      // a write may take fewer bytes than asked (a disk filling up): the rest goes on from there, or fails
      for (let written = 0; written < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, size + written)
        if (bytesWritten === 0) throw Object.assign(new Error('no byte written'), { code: 'ENOSPC' })
        written += bytesWritten
      }
      await handle.datasync()
      size += bytes.length
      failing = false
      for (const item of items) if (item.event) onRecorded(item.event)
      for (const item of items) item.resolve()
    } catch (error) {
      // nothing of this batch is acknowledged: cut the file back to its last whole line
      await handle.truncate(size).catch(() => {})
      failing = true
      const cause = error as NodeJS.ErrnoException
      const failure = errors.publishJournal(file, `cannot be written (${cause.code ?? cause.message})`, error)
      for (const item of items) item.reject(failure)
    }
  }

  const write = (line: string, event?: JournalEvent): Promise<void> =>
    new Promise((resolve, reject) => {
      batch.push({ line, event, resolve, reject })
      if (!flushing) {
        flushing = true
        void serial(flush)
      }
    })

  return {
    file,
    recovered,
    queued: () => batch.length,
    failing: () => failing,
    size: () => size,
    async append(event) {
      if (batch.length >= PUBLISH_MAX_QUEUED_APPENDS)
        throw Object.assign(errors.publishJournal(file, 'is behind: too many events wait for the disk'), {
          status: 429,
        })
      const recorded: JournalEvent = { ...event, seq: ++seq }
      await write(eventLine(recorded), recorded)
      return recorded
    },
    async markDone(upTo) {
      await write(`${JSON.stringify({ done: upTo })}\n`)
      done = Math.max(done, upTo)
    },
    retry() {
      if (!failing) return Promise.resolve()
      retrying ??= write(`${JSON.stringify({ done })}\n`)
        .catch(() => {})
        .finally(() => {
          retrying = undefined
        })
      return retrying
    },
    compact: (pending, minBytes) =>
      serial(async () => {
        if (size < minBytes) return
        const temp = `${file}.tmp`
        const text = `${JSON.stringify({ done })}\n${pending().map(eventLine).join('')}`
        // a file of its own: whatever is at that name (a FIFO would take the events and never sync, then be renamed
        // over the journal; a link would fail every compaction) is removed first
        await rm(temp, { force: true })
        const out = await open(temp, OPEN_JOURNAL | constants.O_CREAT | constants.O_EXCL, 0o600)
        try {
          await out.writeFile(text)
          await out.datasync()
        } finally {
          await out.close()
        }
        await rename(temp, file)
        // From here the journal is the new file: appends must go to it even if syncing the folder fails below,
        // not to the old one, which no name leads to any more (a restart would not read what they wrote).
        await handle.close().catch(() => {})
        handle = await open(file, OPEN_JOURNAL)
        size = Buffer.byteLength(text)
        const folder = await open(dir, 'r')
        await folder.sync().finally(() => folder.close())
      }),
    close: () => serial(() => handle.close()),
  }
}
