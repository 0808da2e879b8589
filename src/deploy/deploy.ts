/**
 * `site deploy`: sends a built output to a target, only what changed since the target's last deploy
 * (judged by the content hashes of the build state, not by dates), in an order that never shows a
 * page before its assets (plan.ts). The target's manifest is written last: a deploy that stops half
 * way is finished by the next one, which sends what the target still lacks: before it changes the target, a
 * deploy records there the paths it may change (the pending record), and the next takes them as unknown.
 */
import { join } from 'node:path'
import pLimit from 'p-limit'
import type { OutputMemory } from '../build/incremental/previous.js'
import type { ResolvedSite } from '../config/types.js'
import { errors, messageOf } from '../errors.js'
import { contentTypeOf, IMMUTABLE_CACHE, NO_CACHE } from '../serve/content-types.js'
import { DEPLOY_CONCURRENCY } from '../shared/constants.js'
import { type OutputFiles, readOutputFiles } from './output-files.js'
import {
  DEPLOY_STEPS,
  type DeployPlan,
  type DeployStep,
  parsePendingRecord,
  parseTargetManifest,
  pathsInDoubt,
  planDeploy,
  renderPendingRecord,
  renderTargetManifest,
  type TargetManifest,
} from './plan.js'
import type { DeployTarget } from './targets/types.js'

export interface DeployOptions {
  outDir: string
  target: DeployTarget
  /** The site the output was built for: its checks read the build state, its `build.keepBuilds` says how many builds a content-hashed file gone from the output stays on the target. */
  site: ResolvedSite
  /** List what would be sent and deleted; send nothing. */
  dryRun?: boolean
  /** What the builder that wrote the output knows of it (`site publish`): what it committed is not read again. */
  memory?: OutputMemory
  /** The project the output was built in: files as its last build checked them are not read again. */
  root?: string
  /** What a long-lived deployer (`site publish`) knows of the target's manifest: not read again while unchanged. */
  targetMemory?: TargetMemory
  log?: (line: string) => void
  /** Stops the deploy (`site publish`: its time is up, or the publisher stops); it then fails with the reason. */
  signal?: AbortSignal
}

/**
 * The target's manifest as the last deploy left it, with the stamp the target gave it (DeployTarget.manifestStamp).
 * Taken instead of reading the manifest again while the target still gives that stamp: at 30,000 pages, reading,
 * parsing and checking it was half of a one-page deploy. Another deployer writing to the target changes the stamp.
 */
export interface TargetMemory {
  last: { target: string; stamp: string; manifest: TargetManifest } | undefined
}

export interface DeployReport {
  target: string
  buildId: string
  uploads: Record<DeployStep, string[]>
  deletes: string[]
  filesUploaded: number
  dryRun: boolean
  /** The target had no manifest we could read: everything was sent. */
  firstDeploy: boolean
  durationMs: number
}

/** A record's text as JSON; undefined when absent or not JSON (the plan's parsers judge the rest). */
function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

const cacheControlOf = (step: DeployStep): string => (step === 'hashed' ? IMMUTABLE_CACHE : NO_CACHE)

/**
 * The plan's uploads step by step, then its deletes, then the target's commit; each stops once `signal` aborts.
 * The first failure starts nothing more, and is thrown once what runs has ended: a deploy that failed sends nothing
 * after (a publisher builds again meanwhile, and a page of that build sent before its assets would show broken).
 */
async function sendAll(options: DeployOptions, plan: DeployPlan): Promise<void> {
  const { target, outDir, signal } = options
  const limit = pLimit(DEPLOY_CONCURRENCY)
  let failure: { error: unknown } | undefined
  const run = (action: () => Promise<void>) =>
    limit(async () => {
      if (failure) return
      try {
        signal?.throwIfAborted()
        await action()
      } catch (error) {
        failure ??= { error }
      }
    })
  const all = async (actions: Promise<void>[]) => {
    await Promise.all(actions)
    if (failure) throw failure.error
  }
  for (const step of DEPLOY_STEPS) {
    const file = (path: string) => ({
      path,
      source: join(outDir, path),
      contentType: contentTypeOf(path),
      cacheControl: cacheControlOf(step),
    })
    const send = (paths: string[]) => all(paths.map((path) => run(() => target.upload(file(path), signal))))
    // what the target does not hold first: a changed page that links to a new one is sent once that one is there
    await send(plan.uploads[step].filter((path) => !plan.replaces.has(path)))
    await send(plan.uploads[step].filter((path) => plan.replaces.has(path)))
  }
  await all(plan.deletes.map((path) => run(() => target.remove(path, signal))))
  signal?.throwIfAborted()
  await target.commit(signal)
}

export async function deploy(options: DeployOptions): Promise<DeployReport> {
  return await deployUnstopped(options).catch((error: unknown) => {
    // stopped (a publisher's deploy that took too long, or a stop): its reason says why, not the target's echo of it
    const { signal, target } = options
    throw signal?.aborted ? errors.deployFailed(target.name, messageOf(signal.reason), error) : error
  })
}

async function deployUnstopped(options: DeployOptions): Promise<DeployReport> {
  const started = performance.now()
  // read first: an output that is none (no build yet) fails before a folder target is made to hold the lock
  const output = await readOutputFiles(options.outDir, options.site, { memory: options.memory, root: options.root })
  // a dry run only reads; a deploy plans from the target's manifest only once no other deploy can change it
  const release = options.dryRun ? undefined : await options.target.hold?.()
  try {
    return await deployHeld(options, output, started)
  } finally {
    await release?.()
  }
}

async function deployHeld(options: DeployOptions, output: OutputFiles, started: number): Promise<DeployReport> {
  const { target, signal, targetMemory } = options
  const known = targetMemory?.last
  // what this deploy leaves is known again only once it has written the manifest, or found it current
  if (targetMemory) targetMemory.last = undefined
  const [stamp, pending] = await Promise.all([
    // a stamp that cannot be taken (the target folder made a file) only means the manifest is read again, where the
    // target reports it as its own failure, naming itself and the file
    targetMemory ? target.manifestStamp(signal).catch(() => undefined) : undefined,
    target.readRecord('pending', signal),
  ])
  const remembered = known && stamp !== undefined && known.target === target.name && known.stamp === stamp
  const manifest = remembered
    ? known.manifest
    : parseTargetManifest(parseJson(await target.readRecord('manifest', signal)))
  // a pending record we cannot read leaves every path in doubt
  const unknown =
    pending === undefined
      ? new Set<string>()
      : (parsePendingRecord(parseJson(pending)) ?? new Set(manifest?.files.keys()))
  // a file the manifest names that the target no longer holds (removed behind the deploys' back) is sent again
  const held = manifest && !remembered ? await target.heldPaths?.(signal) : undefined
  if (manifest && held) for (const path of manifest.files.keys()) if (!held.has(path)) unknown.add(path)
  const plan = planDeploy({ ...output, manifest, unknown, keepBuilds: options.site.build.keepBuilds })
  const filesUploaded = DEPLOY_STEPS.reduce((n, step) => n + plan.uploads[step].length, 0)
  const report = (dryRun: boolean): DeployReport => ({
    target: target.name,
    buildId: output.buildId,
    uploads: plan.uploads,
    deletes: plan.deletes,
    filesUploaded: dryRun ? 0 : filesUploaded,
    dryRun,
    firstDeploy: manifest === undefined,
    durationMs: Math.round(performance.now() - started),
  })
  if (options.dryRun) return report(true)
  // written before the target changes, removed once its manifest says what it holds (plan.ts)
  const inDoubt = pathsInDoubt(plan, unknown)
  if (inDoubt.size) await target.writeRecord('pending', renderPendingRecord(inDoubt), signal)
  await sendAll(options, plan)
  const settles = inDoubt.size > 0 || pending !== undefined
  if (settles || manifest === undefined || manifest.buildId !== plan.next.buildId) {
    const written = await target.writeRecord('manifest', renderTargetManifest(plan.next), signal)
    if (settles) await target.removeRecord('pending', signal)
    if (targetMemory && written !== undefined)
      targetMemory.last = { target: target.name, stamp: written, manifest: plan.next }
  } else if (targetMemory && stamp !== undefined) targetMemory.last = { target: target.name, stamp, manifest }
  return report(false)
}
