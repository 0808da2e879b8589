import type { ResolvedPublish, ResolvedSite } from '../config/types.js'
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
import { addEvent, dueAt, emptyPending, pendingCount, pendingEvents, settleBatch, takeBatch } from './pending.js'
import { buildAndDeploy, describeBatch, publishedLine, publishRecord } from './run-publish.js'
import type { PublishRecord, PublishStatus } from './status.js'

export interface PublisherOptions {
  site: string
  outDir: string
  options: Pick<ResolvedPublish, 'quietMs' | 'maxWaitMs' | 'reconcileMinutes'>
  builder: Builder
  target?: DeployTarget
  /** The site it publishes (its build state checks and `build.keepBuilds`). */
  siteOptions: ResolvedSite
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
/** `journal` is opened by the caller with `onRecorded` bound to the returned `record`. */
export function createPublisher(input: PublisherOptions): {
  publisher: Publisher
  record: (event: JournalEvent) => void
  start: (journal: Journal) => void
} {
  const { options, builder, target, log } = input
  const pending = emptyPending()
  const history: PublishRecord[] = []
  const counts = { ok: 0, failed: 0 }
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

  async function publish(): Promise<void> {
    const batch = takeBatch(pending)
    if (!batch) return
    controller = new AbortController()
    try {
      const outcome = await buildAndDeploy(
        batch,
        { builder, target, outDir: input.outDir, site: input.siteOptions },
        controller.signal,
      )
      if (batch.upTo > 0) await journal?.markDone(batch.upTo)
      settleBatch(pending, true)
      if (batch.full) lastReconcile = Date.now()
      failures = 0
      retryAt = undefined
      const entry = publishRecord(batch, outcome)
      remember(entry)
      log(publishedLine(batch, entry, target))
      await journal?.compact(() => pendingEvents(pending), PUBLISH_COMPACT_BYTES)
    } catch (error) {
      settleBatch(pending, false)
      const what = describeBatch(batch)
      if (stopping) return log(`publish of ${what} stopped: its events stay in the journal for the next start`)
      failures++
      const delay = Math.min(PUBLISH_RETRY_MIN_MS * 2 ** (failures - 1), PUBLISH_RETRY_MAX_MS)
      retryAt = Date.now() + delay
      remember(publishRecord(batch, { error: messageOf(error) }))
      log(`publish of ${what} failed (attempt ${failures}, next in ${Math.round(delay / 1000)} s): ${messageOf(error)}`)
    } finally {
      controller = undefined
    }
  }

  const remember = (entry: PublishRecord) => {
    counts[entry.ok ? 'ok' : 'failed']++
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
      publishCount: { ...counts },
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
