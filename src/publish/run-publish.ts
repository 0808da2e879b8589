/**
 * One publish of a batch: build the named pages (or all), deploy, and what `/status` and the log say
 * of it. No state: the publisher (publisher.ts) decides when to run one and what to do after.
 */

import type { BuildResult } from '../build/types.js'
import type { ResolvedSite } from '../config/types.js'
import { deploy, type TargetMemory } from '../deploy/deploy.js'
import type { DeployTarget } from '../deploy/targets/types.js'
import { messageOf } from '../errors.js'
import { PUBLISH_MAX_LISTED_PAGES } from '../shared/constants.js'
import type { Builder } from './builder.js'
import type { Batch } from './pending.js'
import type { PublishRecord } from './status.js'

export interface PublishStep {
  builder: Builder
  target: DeployTarget | undefined
  /** What the publisher's deploys know of the target's manifest (deploy.ts). */
  targetMemory: TargetMemory
  outDir: string
  site: ResolvedSite
  /** The project the output is built in: a deploy takes its files as its builds last checked them (deploy.ts). */
  root?: string
  /** Longest a deploy may take before it is stopped and fails (`publish.deployTimeoutMs`). */
  deployTimeoutMs: number
}

type Outcome = Pick<PublishRecord, 'changed' | 'filesUploaded' | 'deleted' | 'buildMs' | 'deployMs'>

/**
 * A deploy that failed after its build had changed the output: the pages it changed are live only once a later
 * deploy sends them, and are that publish's changes (the later build finds them as they are).
 */
export class UnsentChanges extends Error {
  constructor(
    readonly pages: readonly string[],
    cause: unknown,
  ) {
    super(messageOf(cause), { cause })
    this.name = 'UnsentChanges'
  }
}

/** A publish's outcome, and what the build heard of scheduled changes (see schedule.ts). */
type Published = Omit<Outcome, 'changed'> & {
  /** The pages its build added, changed or removed. */
  changedPages: string[]
  recheck: BuildResult['recheck']
  refetched: string[]
  /** `file:` items no page of the previous build shows (a new upload): nothing was published for them. */
  unshownFiles: string[]
  /** Page uids no page of the previous build has (a typo, a deleted page, or a new page its parent's build finds). */
  unknownUids: number[]
  /** Page paths neither the previous build nor the API has a page at (a typo): nothing was published for them. */
  unknownPaths: string[]
  /** Why a batch naming pages built every page (the output is another version's, or another config's): see planOnly. */
  fallback: string | undefined
}

function describeFailures(result: BuildResult): string {
  const first = result.failures[0]!
  const more = result.failures.length > 1 ? ` (and ${result.failures.length - 1} more)` : ''
  return `the build failed: ${first.kind} ${first.path}: ${first.reason}${more}`
}

/** Builds the batch over the output folder and deploys it; rejects when either fails (a failed build leaves the output as it was). */
export async function buildAndDeploy(batch: Batch, step: PublishStep, signal: AbortSignal): Promise<Published> {
  const t0 = Date.now()
  const { target } = step
  // no page named (the check at start, publisher.ts): what the engine, config, templates or navigation changed
  let result: BuildResult
  try {
    result = await step.builder.build({ only: batch.full ? undefined : [...batch.pages], signal })
    if (result.failures.length) throw new Error(describeFailures(result))
  } catch (error) {
    // the check's build failed (the API down): the output is as its last build left it, and a target a deploy cut
    // short left behind it is brought up to it all the same; the build's failure is what is retried and reported
    if (target && isCheckAtStart(batch) && !signal.aborted)
      await deployInTime(target, step, signal).catch(() => undefined)
    throw error
  }
  const t1 = Date.now()
  const { added, changed, removed } = result.changes.pages
  const changedPages = [...added, ...changed, ...removed]
  const report = target
    ? await deployInTime(target, step, signal).catch((error: unknown) => {
        throw new UnsentChanges(changedPages, error)
      })
    : undefined
  return {
    changedPages,
    filesUploaded: report ? report.filesUploaded : result.filesWritten,
    deleted: report?.deletes.length ?? 0,
    buildMs: t1 - t0,
    deployMs: Date.now() - t1,
    recheck: result.recheck,
    refetched: result.only?.refetched ?? [],
    unshownFiles: result.only?.unknownFiles ?? [],
    unknownUids: result.only?.unknownUids ?? [],
    unknownPaths: result.only?.unknownPaths ?? [],
    fallback: result.only?.fallback,
  }
}

/** Deploys the output, stopped by `signal` (the publisher stops) or once `publish.deployTimeoutMs` has passed. */
async function deployInTime(target: DeployTarget, step: PublishStep, signal: AbortSignal) {
  const timeUp = new AbortController()
  const ms = step.deployTimeoutMs
  const timer = setTimeout(
    () => timeUp.abort(new Error(`the deploy took longer than publish.deployTimeoutMs (${ms} ms) and was stopped`)),
    ms,
  )
  try {
    return await deploy({
      ...{ outDir: step.outDir, target, site: step.site },
      ...{ memory: step.builder.memory, targetMemory: step.targetMemory, root: step.root },
      signal: AbortSignal.any([signal, timeUp.signal]),
    })
  } finally {
    clearTimeout(timer)
  }
}

/** A batch that names no page and is no full build: the check at start (publisher.ts). */
const isCheckAtStart = (batch: Batch): boolean => !batch.full && batch.pages.size === 0

/**
 * What a batch is, for a log line: `all pages`, `2 page(s): 12, /pl/o-nas`; one that names no page is the check at
 * start (publisher.ts), which builds what changed besides the pages.
 */
export const describeBatch = (batch: Batch): string =>
  batch.full
    ? 'all pages'
    : isCheckAtStart(batch)
      ? 'the check at start'
      : `${batch.pages.size} page(s): ${[...batch.pages].slice(0, PUBLISH_MAX_LISTED_PAGES).join(', ')}`

/** The `/status` record of a finished publish: its outcome, or the error it failed with. */
export function publishRecord(batch: Batch, outcome: Outcome | { error: string }): PublishRecord {
  const nothing: Outcome = { changed: 0, filesUploaded: 0, deleted: 0, buildMs: 0, deployMs: 0 }
  return {
    ok: !('error' in outcome),
    pages: [...batch.pages].slice(0, PUBLISH_MAX_LISTED_PAGES),
    full: batch.full,
    events: batch.events,
    ...('error' in outcome
      ? { ...nothing, error: outcome.error }
      : {
          changed: outcome.changed,
          filesUploaded: outcome.filesUploaded,
          deleted: outcome.deleted,
          buildMs: outcome.buildMs,
          deployMs: outcome.deployMs,
        }),
    latencyMs: Date.now() - batch.firstAt,
    finishedAt: new Date().toISOString(),
  }
}

/** The log line of a published batch. */
export function publishedLine(batch: Batch, entry: PublishRecord, target: DeployTarget | undefined): string {
  const where = target ? `sent to ${target.name}` : 'written'
  const deleted = entry.deleted ? `, ${entry.deleted} deleted` : ''
  // the publisher's own batches (the check at start, a scheduled reconcile) are not journaled (seq 0): no edit came
  const latency = batch.upTo > 0 ? `, ${entry.latencyMs} ms from the first edit` : ''
  return `published ${describeBatch(batch)}: ${entry.changed} changed, ${entry.filesUploaded} files ${where}${deleted}${latency} (build ${entry.buildMs} ms, deploy ${entry.deployMs} ms)`
}

/**
 * The log lines for what a publish could not place: a file no page shows, a uid or path no page of the last build has.
 * The first PUBLISH_MAX_LISTED_PAGES of each get a line; the others are counted on one (an event may name 1,000).
 */
export function unplacedLines(outcome: Pick<Published, 'unshownFiles' | 'unknownUids' | 'unknownPaths'>): string[] {
  const listed = <T>(items: readonly T[], line: (item: T) => string, rest: string) => [
    ...items.slice(0, PUBLISH_MAX_LISTED_PAGES).map(line),
    ...(items.length > PUBLISH_MAX_LISTED_PAGES ? [`${items.length - PUBLISH_MAX_LISTED_PAGES} more ${rest}`] : []),
  ]
  return [
    ...listed(
      outcome.unshownFiles,
      (item) => `${item}: no page shows this file, nothing was published for it`,
      'files no page shows',
    ),
    ...listed(
      outcome.unknownUids,
      (uid) =>
        `page ${uid}: no page of the previous build has this uid (a new page is found through the page linking to it)`,
      'uids no page of the previous build has',
    ),
    ...listed(
      outcome.unknownPaths,
      (path) => `${path}: no page of the previous build has this path, nor has the API, nothing was published for it`,
      'paths no page has',
    ),
  ]
}
