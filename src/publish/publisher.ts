import { siteRedactor } from '../config/secrets.js'
import type { ResolvedPublish, ResolvedSite } from '../config/types.js'
import type { TargetMemory } from '../deploy/deploy.js'
import type { DeployTarget } from '../deploy/targets/types.js'
import { messageOf } from '../errors.js'
import {
  MAX_TIMER_MS,
  PUBLISH_COMPACT_BYTES,
  PUBLISH_MAX_PAGES_PER_EVENT,
  PUBLISH_RECHECK_GRACE_MS,
  PUBLISH_RETRY_MAX_MS,
  PUBLISH_RETRY_MIN_MS,
  PUBLISH_STATUS_HISTORY,
} from '../shared/constants.js'
import type { Builder } from './builder.js'
import type { Journal, JournalEvent } from './journal.js'
import type { PublishRequest } from './messages.js'
import { addEvent, dueAt, emptyPending, pendingCount, pendingEvents, settleBatch, takeBatch } from './pending.js'
import {
  buildAndDeploy,
  describeBatch,
  publishedLine,
  publishRecord,
  UnsentChanges,
  unplacedLines,
} from './run-publish.js'
import { nextDue, type Schedule, saveSchedule, takeDue, updateSchedule } from './schedule.js'
import type { PublishRecord, PublishStatus } from './status.js'

export interface PublisherOptions {
  site: string
  outDir: string
  options: Pick<ResolvedPublish, 'quietMs' | 'maxWaitMs' | 'reconcileMinutes' | 'deployTimeoutMs'>
  builder: Builder
  target?: DeployTarget
  /** The site it publishes (its build state checks and `build.keepBuilds`). */
  siteOptions: ResolvedSite
  /** One line per event and per publish (the CLI escapes it). */
  log: (line: string) => void
  /** Reconcile at start (the output folder holds no site). */
  reconcileAtStart: boolean
  /** Where the scheduled re-checks are kept between runs (the journal's folder); without it, in memory only. */
  stateDir?: string
  /** The project (its build's record of the output's checked files): the deploy of the check at start reads no file again. */
  root?: string
}

export interface Publisher {
  /** Records an event (on disk before it resolves); a draft is only logged. */
  accept(request: PublishRequest, from: string): Promise<JournalEvent | undefined>
  status(): PublishStatus
  /** Running, not stopping: webhooks are tried. */
  readonly accepting: boolean
  /** Accepting, and the journal's last write went through (`/healthz`). */
  readonly healthy: boolean
  /** Tries the journal again when its last write failed (`/healthz` asks, so that a full disk freed shows). */
  retryJournal(): Promise<void>
  /** Resolves when nothing is pending or being built (tests and benchmarks wait on it). */
  idle(): Promise<void>
  stop(): Promise<void>
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())
/** `journal` is opened by the caller with `onRecorded` bound to the returned `record`. */
export function createPublisher(input: PublisherOptions): {
  publisher: Publisher
  record: (event: JournalEvent) => void
  start: (journal: Journal, schedule?: Schedule) => void
} {
  const { options, builder, target, log } = input
  const targetMemory: TargetMemory = { last: undefined }
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
  // pages built into the output whose deploy failed: live, and counted, with the next deploy that succeeds
  const unsent = new Set<string>()
  let lastReconcile: number | undefined
  let nextReconcile: number | undefined
  let stopping = false
  let rechecks: Schedule = new Map()
  let recheckTimer: NodeJS.Timeout | undefined
  let idleWaiters: Array<() => void> = []
  const reconcileMs = options.reconcileMinutes * 60_000
  // a failure's message names the request it made: /status and the log show it without the API's credentials
  const redact = siteRedactor(input.siteOptions)
  const reasonOf = (error: unknown) => redact(messageOf(error))

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
    const at = Math.max(dueAt(pending.open, options, Date.now()), retryAt ?? 0)
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
    // The event's pages are asked of the API while the quiet period runs; the build takes the answers.
    if (!event.full && event.pages?.length) builder.prefetch?.(event.pages)
    schedule()
  }

  /** Arms the timer of the earliest scheduled re-check; when it fires, the pages due are recorded as an event. */
  const armRecheck = () => {
    clearTimeout(recheckTimer)
    recheckTimer = undefined
    const next = nextDue(rechecks)
    if (stopping || next === undefined) return
    const wait = Math.min(Math.max(0, next + PUBLISH_RECHECK_GRACE_MS - Date.now()), MAX_TIMER_MS)
    recheckTimer = setTimeout(() => void recheckDue(), wait)
    recheckTimer.unref()
  }

  const recheckDue = async () => {
    const pages = takeDue(rechecks, Date.now() - PUBLISH_RECHECK_GRACE_MS, PUBLISH_MAX_PAGES_PER_EVENT)
    if (pages.length) {
      const what = `scheduled re-check of ${pages.length} page(s) whose answer said it may change now: ${pages.slice(0, 10).join(', ')}`
      try {
        await publisher.accept({ kind: 'pages', pages, what }, 'the schedule')
      } catch (error) {
        // the journal cannot take it now (disk full): tried again shortly
        const later = Date.now() + PUBLISH_RETRY_MIN_MS * 5
        for (const page of pages) rechecks.set(page, later)
        log(`scheduled re-check not recorded (${messageOf(error)}): tried again in 5 s`)
      }
    }
    armRecheck()
  }

  const scheduleReconcile = () => {
    nextReconcile = Date.now() + reconcileMs
    armReconcile(nextReconcile)
  }
  /** A reconcile further off than a timer reaches (about 24.8 days) is armed again when the timer fires. */
  const armReconcile = (due: number) => {
    reconcileTimer = setTimeout(
      () => {
        if (Date.now() < due) return armReconcile(due)
        log('reconcile: a full build over the previous output (scheduled)')
        record({ seq: 0, at: Date.now(), full: true })
        scheduleReconcile()
      },
      Math.min(Math.max(0, due - Date.now()), MAX_TIMER_MS),
    )
    reconcileTimer.unref()
  }

  async function publish(): Promise<void> {
    const batch = takeBatch(pending)
    if (!batch) return
    controller = new AbortController()
    try {
      const outcome = await buildAndDeploy(
        batch,
        {
          ...{ builder, target, targetMemory, outDir: input.outDir, site: input.siteOptions, root: input.root },
          deployTimeoutMs: options.deployTimeoutMs,
        },
        controller.signal,
      )
      if (batch.upTo > 0) await journal?.markDone(batch.upTo)
      settleBatch(pending, true)
      if (batch.full) lastReconcile = Date.now()
      updateSchedule(rechecks, outcome, nextReconcile ?? Date.now() + reconcileMs)
      armRecheck()
      if (input.stateDir)
        await saveSchedule(input.stateDir, rechecks).catch((error: unknown) =>
          log(`scheduled re-checks not saved (kept in memory): ${messageOf(error)}`),
        )
      failures = 0
      retryAt = undefined
      const changed = new Set([...unsent, ...outcome.changedPages]).size
      unsent.clear()
      const entry = publishRecord(batch, { ...outcome, changed })
      remember(entry)
      log(publishedLine(batch, entry, target))
      if (outcome.fallback) log(`every page was built, as ${outcome.fallback}`)
      for (const line of unplacedLines(outcome)) log(line)
    } catch (error) {
      settleBatch(pending, false)
      if (error instanceof UnsentChanges) for (const page of error.pages) unsent.add(page)
      const what = describeBatch(batch)
      if (stopping) {
        // the publisher's own batches (the check at start, a scheduled reconcile) are not journaled (seq 0)
        const kept =
          batch.upTo > 0
            ? 'its events stay in the journal for the next start'
            : 'no webhook asked for it, so the journal keeps nothing of it'
        return log(`publish of ${what} stopped: ${kept}`)
      }
      failures++
      const delay = Math.min(PUBLISH_RETRY_MIN_MS * 2 ** (failures - 1), PUBLISH_RETRY_MAX_MS)
      retryAt = Date.now() + delay
      remember(publishRecord(batch, { error: reasonOf(error) }))
      log(`publish of ${what} failed (attempt ${failures}, next in ${Math.round(delay / 1000)} s): ${reasonOf(error)}`)
    } finally {
      controller = undefined
    }
    // after a publish that went live as after one that failed (else the journal grows with every event of an
    // outage, and a start after it reads it all into memory)
    await compactJournal(PUBLISH_COMPACT_BYTES)
  }

  /** Compacts the journal past `minBytes`; a compaction that fails is no failed publish: the journal as it is replays right. */
  const compactJournal = (minBytes: number): Promise<void> | undefined =>
    journal
      ?.compact(() => pendingEvents(pending), minBytes)
      .catch((cause: unknown) => log(`journal not compacted: ${messageOf(cause)}`))

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
    retryJournal: async () => {
      if (publisher.accepting) await journal?.retry()
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
      scheduled: { pages: rechecks.size, next: iso(nextDue(rechecks)) },
      publishCount: { ...counts },
      publishes: [...history],
    }),
    idle: () => (isIdle() ? Promise.resolve() : new Promise((done) => idleWaiters.push(done))),
    async stop() {
      stopping = true
      clearTimeout(timer)
      clearTimeout(reconcileTimer)
      clearTimeout(recheckTimer)
      controller?.abort('SIGTERM')
      await running
      const left = pendingCount(pending)
      const where = input.stateDir ? ` in ${input.stateDir}` : ''
      if (left) log(`${left} event(s) not yet live stay in the journal${where} for the next start`)
      await compactJournal(0)
      await journal?.close()
      await target?.close()
      await builder.close()
      wakeIdle()
    },
  }

  const start = (opened: Journal, saved: Schedule = new Map()) => {
    journal = opened
    rechecks = saved
    if (saved.size)
      log(`${saved.size} scheduled re-check(s) kept from the last run, the next at ${iso(nextDue(saved))}`)
    for (const event of opened.recovered) addEvent(pending, event)
    if (opened.recovered.length) log(`recovered ${opened.recovered.length} event(s) not yet live from the journal`)
    if (input.reconcileAtStart) {
      log('reconcile: the output folder holds no site yet: a full build')
      addEvent(pending, { seq: 0, at: Date.now(), full: true })
    } else if (!pending.open) {
      // A release or a config change since the output's last build (another engine, config or templates), or a
      // menu edited while the publisher was down, shows on no page until an event comes: a build naming no page
      // builds what they changed (every page, or the pages rendered again from their kept data; nothing when
      // nothing changed). A deploy cut short (a kill -9, a target that went away before a stop) left the target
      // behind the output, with no event in the journal to publish again (a reconcile's is not journaled): brought
      // up to it as well. Nothing is sent when the target's manifest already names the output's build.
      log(
        `check at start: what a release, the config or the navigation changed is built${target ? `, and ${target.name} is brought up to the output folder` : ''}`,
      )
      addEvent(pending, { seq: 0, at: Date.now(), pages: [] })
    }
    scheduleReconcile()
    armRecheck()
    schedule()
  }

  return { publisher, record, start }
}
