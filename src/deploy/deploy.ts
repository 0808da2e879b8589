/**
 * `site deploy`: sends a built output to a target, only what changed since the target's last deploy
 * (judged by the content hashes of the build state, not by dates), in an order that never shows a
 * page before its assets (plan.ts). The target's manifest is written last: a deploy that stops half
 * way is finished by the next one, which sends what the target still lacks.
 */
import { join } from 'node:path'
import pLimit from 'p-limit'
import type { OutputMemory } from '../build/incremental/previous.js'
import type { ResolvedSite } from '../config/types.js'
import { contentTypeOf, IMMUTABLE_CACHE, NO_CACHE } from '../serve/content-types.js'
import { DEPLOY_CONCURRENCY } from '../shared/constants.js'
import { readOutputFiles } from './output-files.js'
import {
  DEPLOY_STEPS,
  type DeployStep,
  parseTargetManifest,
  planDeploy,
  renderTargetManifest,
  type TargetManifest,
} from './plan.js'
import type { DeployTarget } from './targets/types.js'

export interface DeployOptions {
  outDir: string
  target: DeployTarget
  /** The site the output was built for: its checks read the build state, its `build.keepBuilds` says how many builds a file gone from the output stays on the target. */
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

const cacheControlOf = (step: DeployStep): string => (step === 'hashed' ? IMMUTABLE_CACHE : NO_CACHE)

export async function deploy(options: DeployOptions): Promise<DeployReport> {
  const started = performance.now()
  const { target, outDir } = options
  const output = await readOutputFiles(outDir, options.site, { memory: options.memory, root: options.root })
  const { targetMemory } = options
  const known = targetMemory?.last
  // what this deploy leaves is known again only once it has written the manifest, or found it current
  if (targetMemory) targetMemory.last = undefined
  const stamp = targetMemory ? await target.manifestStamp() : undefined
  const manifest =
    known && stamp !== undefined && known.target === target.name && known.stamp === stamp
      ? known.manifest
      : parseTargetManifest(await target.readManifest())
  const plan = planDeploy({ ...output, manifest, keepBuilds: options.site.build.keepBuilds })
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
  const limit = pLimit(DEPLOY_CONCURRENCY)
  for (const step of DEPLOY_STEPS) {
    const upload = (path: string) =>
      target.upload({
        path,
        source: join(outDir, path),
        contentType: contentTypeOf(path),
        cacheControl: cacheControlOf(step),
      })
    await Promise.all(plan.uploads[step].map((path) => limit(() => upload(path))))
  }
  await Promise.all(plan.deletes.map((path) => limit(() => target.remove(path))))
  await target.commit()
  if (filesUploaded || plan.deletes.length || manifest === undefined || manifest.buildId !== plan.next.buildId) {
    const written = await target.writeManifest(renderTargetManifest(plan.next))
    if (targetMemory && written !== undefined)
      targetMemory.last = { target: target.name, stamp: written, manifest: plan.next }
  } else if (targetMemory && stamp !== undefined) targetMemory.last = { target: target.name, stamp, manifest }
  return report(false)
}
