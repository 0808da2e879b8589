/**
 * The publisher: recorded events in, one build and deploy at a time out. Events wait in `pending.ts`
 * batches until a quiet period passes (or the longest wait); events that come during a build go into
 * the next one. A failed build or deploy keeps its events pending and is tried again after a growing
 * delay. A full build over the previous output (reconcile) runs every `reconcileMinutes`, and at start
 * when the output folder holds no site. `stop()` takes no new event, stops a build in progress (its
 * events stay in the journal), lets a deploy in progress finish, and closes the journal.
 */
import type { BuildResult } from '../build/types.js'
import type { ResolvedPublish } from '../config/types.js'
import { deploy } from '../deploy/deploy.js'
import type { DeployTarget } from '../deploy/targets/types.js'
import { messageOf } from '../errors.js'
import {
  PUBLISH_COMPACT_BYTES,
  PUBLISH_RETRY_MAX_MS,
  PUBLISH_RETRY_MIN_MS,
  PUBLISH_STATUS_HISTORY,
} from '../shared/constants.js'
import type { Builder } from './builder.js'
import type { Journal, JournalEvent } from './journal.js'
import type { PublishRequest } from './messages.js'
import {
  addEvent,
  type Batch,
  dueAt,
  emptyPending,
  pendingCount,
  pendingEvents,
  settleBatch,
  takeBatch,
} from './pending.js'
import type { PublishRecord, PublishStatus } from './status.js'

export interface PublisherOptions {
  site: string
  outDir: string
  options: Pick<ResolvedPublish, 'quietMs' | 'maxWaitMs' | 'reconcileMinutes'>
  builder: Builder
  target?: DeployTarget
  keepBuilds: number
  /** One line per event and per publish (the CLI escapes it). */
  log: (line: string) => void
  /** Reconcile at start (the output folder holds no site). */
  reconcileAtStart: boolean
}

export interface Publisher {
  /** Records an event (on disk before it resolves); a draft is only logged. */
  accept(request: PublishRequest, from: string): Promise<JournalEvent | undefined>
  status(): PublishStatus
  /** Running, not stopping: webhooks are tried. */
  readonly accepting: boolean
  /** Accepting, and the journal's last write went through (`/healthz`). */
  readonly healthy: boolean
  /** Resolves when nothing is pending or being built (tests and benchmarks wait on it). */
  idle(): Promise<void>
  stop(): Promise<void>
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())
const MAX_LISTED_PAGES = 50

function describeFailures(result: BuildResult): string {
  const first = result.failures[0]!
  const more = result.failures.length > 1 ? ` (and ${result.failures.length - 1} more)` : ''
  return `the build failed: ${first.kind} ${first.path}: ${first.reason}${more}`
}

/** `journal` is opened by the caller with `onRecorded` bound to the returned `record`. */
export function createPublisher(input: PublisherOptions): {
  publisher: Publisher
  record: (event: JournalEvent) => void
  start: (journal: Journal) => void
} {
  const { options, builder, target, log } = input
  const pending = emptyPending()
  const history: PublishRecord[] = []
  let journal: Journal | undefined
  let running: Promise<void> | undefined
  let controller: AbortController | undefined
  let timer: NodeJS.Timeout | undefined
  let reconcileTimer: NodeJS.Timeout | undefined
  let failures = 0
  let retryAt: number | undefined
  let lastReconcile: number | undefined
  let nextReconcile: number | undefined
  let stopping = false
  let idleWaiters: Array<() => void> = []
  const reconcileMs = options.reconcileMinutes * 60_000

  const isIdle = () => !running && !pending.open && !pending.taken
  const wakeIdle = () => {
    if (!isIdle()) return
    for (const done of idleWaiters) done()
    idleWaiters = []
  }

  const schedule = () => {
    clearTimeout(timer)
    timer = undefined
    if (stopping || running || !pending.open) return wakeIdle()
    const at = Math.max(dueAt(pending.open, options), retryAt ?? 0)
    timer = setTimeout(
      () => {
        timer = undefined
        running = publish().finally(() => {
          running = undefined
          schedule()
        })
      },
      Math.max(0, at - Date.now()),
    )
  }

  const record = (event: JournalEvent) => {
    addEvent(pending, event)
    schedule()
  }

  const scheduleReconcile = () => {
    nextReconcile = Date.now() + reconcileMs
    reconcileTimer = setTimeout(() => {
      log('reconcile: a full build over the previous output (scheduled)')
      record({ seq: 0, at: Date.now(), full: true })
      scheduleReconcile()
    }, reconcileMs)
    reconcileTimer.unref()
  }

  async function buildAndDeploy(batch: Batch, signal: AbortSignal) {
    const t0 = Date.now()
    const result = await builder.build({ only: batch.full ? undefined : [...batch.pages], signal })
    if (result.failures.length) throw new Error(describeFailures(result))
    const t1 = Date.now()
    const report = target ? await deploy({ outDir: input.outDir, target, keepBuilds: input.keepBuilds }) : undefined
    const changes = result.changes.pages
    return {
      changed: changes.added.length + changes.changed.length + changes.removed.length,
      filesUploaded: report ? report.filesUploaded : result.filesWritten,
      deleted: report?.deletes.length ?? 0,
      buildMs: t1 - t0,
      deployMs: Date.now() - t1,
    }
  }

  async function publish(): Promise<void> {
    const batch = takeBatch(pending)
    if (!batch) return
    controller = new AbortController()
    const pages = [...batch.pages].slice(0, MAX_LISTED_PAGES)
    const what = batch.full ? 'all pages' : `${batch.pages.size} page(s): ${pages.join(', ')}`
    try {
      const done = await buildAndDeploy(batch, controller.signal)
      if (batch.upTo > 0) await journal?.markDone(batch.upTo)
      settleBatch(pending, true)
      if (batch.full) lastReconcile = Date.now()
      failures = 0
      retryAt = undefined
      const entry: PublishRecord = {
        ok: true,
        pages,
        full: batch.full,
        events: batch.events,
        ...done,
        latencyMs: Date.now() - batch.firstAt,
        finishedAt: new Date().toISOString(),
      }
      remember(entry)
      log(
        `published ${what}: ${entry.changed} changed, ${entry.filesUploaded} files ${target ? `sent to ${target.name}` : 'written'}${done.deleted ? `, ${done.deleted} deleted` : ''}, ${entry.latencyMs} ms from the first edit (build ${done.buildMs} ms, deploy ${done.deployMs} ms)`,
      )
      await journal?.compact(() => pendingEvents(pending), PUBLISH_COMPACT_BYTES)
    } catch (error) {
      settleBatch(pending, false)
      const reason = messageOf(error)
      if (stopping) return log(`publish of ${what} stopped: its events stay in the journal for the next start`)
      failures++
      const delay = Math.min(PUBLISH_RETRY_MIN_MS * 2 ** (failures - 1), PUBLISH_RETRY_MAX_MS)
      retryAt = Date.now() + delay
      remember({
        ok: false,
        pages,
        full: batch.full,
        events: batch.events,
        changed: 0,
        filesUploaded: 0,
        deleted: 0,
        buildMs: 0,
        deployMs: 0,
        latencyMs: Date.now() - batch.firstAt,
        finishedAt: new Date().toISOString(),
        error: reason,
      })
      log(`publish of ${what} failed (attempt ${failures}, next in ${Math.round(delay / 1000)} s): ${reason}`)
    } finally {
      controller = undefined
    }
  }

  const remember = (entry: PublishRecord) => {
    history.unshift(entry)
    history.length = Math.min(history.length, PUBLISH_STATUS_HISTORY)
  }

  const publisher: Publisher = {
    get accepting() {
      return !stopping && journal !== undefined
    },
    get healthy() {
      return publisher.accepting && !journal?.failing()
    },
    async accept(request, from) {
      if (request.kind === 'draft') {
        log(`event from ${from}: ${request.what}: nothing to publish`)
        return undefined
      }
      const event = await journal!.append(
        request.kind === 'full' ? { at: Date.now(), full: true } : { at: Date.now(), pages: request.pages },
      )
      log(`event #${event.seq} from ${from}: ${request.what}${request.kind === 'full' ? ' (a full build)' : ''}`)
      return event
    },
    status: () => ({
      site: input.site,
      outDir: input.outDir,
      deploy: target?.name ?? null,
      accepting: publisher.accepting,
      journalWritable: !journal?.failing(),
      pending: pendingCount(pending),
      building: running !== undefined,
      queuedAppends: journal?.queued() ?? 0,
      journalBytes: journal?.size() ?? 0,
      retryAt: iso(retryAt),
      lastReconcile: iso(lastReconcile),
      nextReconcile: iso(nextReconcile),
      publishes: [...history],
    }),
    idle: () => (isIdle() ? Promise.resolve() : new Promise((done) => idleWaiters.push(done))),
    async stop() {
      stopping = true
      clearTimeout(timer)
      clearTimeout(reconcileTimer)
      controller?.abort('SIGTERM')
      await running
      await journal?.compact(() => pendingEvents(pending), 0)
      await journal?.close()
      await target?.close()
      await builder.close()
      wakeIdle()
    },
  }

  const start = (opened: Journal) => {
    journal = opened
    for (const event of opened.recovered) addEvent(pending, event)
    if (opened.recovered.length) log(`recovered ${opened.recovered.length} event(s) not yet live from the journal`)
    if (input.reconcileAtStart) {
      log('reconcile: the output folder holds no site yet: a full build')
      addEvent(pending, { seq: 0, at: Date.now(), full: true })
    }
    scheduleReconcile()
    schedule()
  }

  return { publisher, record, start }
}
