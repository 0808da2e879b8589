/**
 * Pure: the events waiting to be published, merged into batches so that memory stays bounded under a
 * flood: the pages named (up to PUBLISH_MAX_PENDING_PAGES; beyond, a full build instead), whether a
 * full build was asked, when the first and last events came, and the sequence number of the last.
 * `open` collects new events; `taken` is the batch being built and deployed. A failed batch goes back
 * before the open one; a published one is forgotten (the journal records it done).
 */
import { PUBLISH_MAX_PENDING_PAGES } from '../shared/constants.js'
import type { JournalEvent } from './journal.js'

export interface Batch {
  pages: Set<string>
  full: boolean
  /** Accepted-at of the first and the last event (ms since the epoch). */
  firstAt: number
  lastAt: number
  /** Sequence number of its last event. */
  upTo: number
  /** Events that came (webhooks, re-checks): the publisher's own (seq 0: the check at start, a reconcile) are not counted. */
  events: number
}

export interface Pending {
  open: Batch | undefined
  taken: Batch | undefined
}

export const emptyPending = (): Pending => ({ open: undefined, taken: undefined })

function merge(into: Batch | undefined, from: Batch): Batch {
  if (!into) return from
  const full = into.full || from.full
  const pages = full ? new Set<string>() : new Set([...into.pages, ...from.pages])
  const tooMany = pages.size > PUBLISH_MAX_PENDING_PAGES
  return {
    pages: tooMany ? new Set() : pages,
    full: full || tooMany,
    firstAt: Math.min(into.firstAt, from.firstAt),
    lastAt: Math.max(into.lastAt, from.lastAt),
    upTo: Math.max(into.upTo, from.upTo),
    events: into.events + from.events,
  }
}

/** Adds a recorded event to the open batch. */
export function addEvent(pending: Pending, event: JournalEvent): void {
  const came = event.seq > 0 ? 1 : 0
  const open = pending.open
  if (open && !open.full && !event.full && open.pages.size + (event.pages?.length ?? 0) <= PUBLISH_MAX_PENDING_PAGES) {
    // the common case, in place: a flood of events costs no copy per event
    for (const page of event.pages ?? []) open.pages.add(page)
    open.lastAt = Math.max(open.lastAt, event.at)
    open.upTo = Math.max(open.upTo, event.seq)
    open.events += came
    return
  }
  pending.open = merge(open, {
    pages: new Set(event.full ? [] : event.pages),
    full: Boolean(event.full),
    firstAt: event.at,
    lastAt: event.at,
    upTo: event.seq,
    events: came,
  })
}

/** Takes the open batch to build it; undefined when nothing waits or a batch is already taken. */
export function takeBatch(pending: Pending): Batch | undefined {
  if (pending.taken || !pending.open) return undefined
  pending.taken = pending.open
  pending.open = undefined
  return pending.taken
}

/** The taken batch is live (forgotten), or failed (merged back into the open one, to be built again). */
export function settleBatch(pending: Pending, ok: boolean): void {
  const taken = pending.taken
  pending.taken = undefined
  if (taken && !ok) pending.open = pending.open ? merge(taken, pending.open) : taken
}

/** The batches as journal events (for compaction): what a restart must still publish. */
export const pendingEvents = (pending: Pending): JournalEvent[] =>
  [pending.taken, pending.open].flatMap((b) =>
    b ? [{ seq: b.upTo, at: b.firstAt, ...(b.full ? { full: true } : { pages: [...b.pages].sort() }) }] : [],
  )

/** Events waiting (open and taken). */
export const pendingCount = (pending: Pending): number => (pending.open?.events ?? 0) + (pending.taken?.events ?? 0)

/**
 * When the open batch should start: `quietMs` after its last event, at most `maxWaitMs` after its first, and never
 * later than `maxWaitMs` from `now`: events stamped ahead of the clock (it was set back, or the journal was written
 * while it ran ahead) would otherwise wait for as long as it was ahead.
 */
export const dueAt = (batch: Batch, timing: { quietMs: number; maxWaitMs: number }, now: number): number =>
  Math.min(batch.lastAt + timing.quietMs, batch.firstAt + timing.maxWaitMs, now + timing.maxWaitMs)
