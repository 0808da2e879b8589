/**
 * Pure: what a deploy uploads and deletes, and in which order, from the output's files (path -> content
 * hash, as the build state records them) and the target's own manifest (what it received before).
 * Order: content-hashed assets and data, then pages, payloads and everything else, then sitemaps,
 * `_redirects`, `robots.txt` and the build state, then `latest.json` last: no step shows a file that
 * names one of a later step. A file gone from the output stays on the target until `keepBuilds` builds
 * (this one included) have gone without it, as the build itself keeps earlier builds' files.
 */
import {
  BUILD_STORE_FILE,
  isContentHashedFile,
  LATEST_MANIFEST_FILE,
  REDIRECTS_FILE,
  ROBOTS_FILE,
  SITEMAP_FILE,
} from '../shared/layout.js'
import { compareStrings, isRecord } from '../shared/values.js'

/** The target's record of what it holds: kept on the target itself (a folder, a bucket) or beside it. */
export interface TargetManifest {
  format: 1
  /** The build the target holds (its `latest.json` id). */
  buildId: string
  /** Builds the target received, counted when the build id changes. */
  builds: number
  /** Every file on the target: path -> content hash. */
  files: Record<string, string>
  /** Files no longer in the output, still on the target: path -> the `builds` count when they left. */
  gone: Record<string, number>
}

export const DEPLOY_STEPS = ['hashed', 'pages', 'site files', 'latest'] as const
export type DeployStep = (typeof DEPLOY_STEPS)[number]

export interface DeployPlan {
  /** Files to upload, by step, each step sorted. */
  uploads: Record<DeployStep, string[]>
  deletes: string[]
  /** The manifest the target holds once the plan is carried out. */
  next: TargetManifest
}

const SITEMAP_PART_RE = /^sitemap(?:-\d+)?\.xml$/

/** The step of a file of the output. */
export function stepOf(path: string): DeployStep {
  if (path === LATEST_MANIFEST_FILE) return 'latest'
  if (isContentHashedFile(path)) return 'hashed'
  if (path === REDIRECTS_FILE || path === ROBOTS_FILE || path === SITEMAP_FILE || path === BUILD_STORE_FILE)
    return 'site files'
  return SITEMAP_PART_RE.test(path) ? 'site files' : 'pages'
}

/** A target manifest read back (untrusted: the target may hold anything); undefined when it is not one. */
export function parseTargetManifest(value: unknown): TargetManifest | undefined {
  if (!isRecord(value) || value.format !== 1 || typeof value.buildId !== 'string') return undefined
  if (!Number.isInteger(value.builds) || !isRecord(value.files) || !isRecord(value.gone)) return undefined
  const files = Object.values(value.files).every((hash) => typeof hash === 'string')
  const gone = Object.values(value.gone).every((n) => Number.isInteger(n))
  return files && gone ? (value as unknown as TargetManifest) : undefined
}

export function planDeploy(input: {
  /** The output's files: path -> content hash. */
  files: ReadonlyMap<string, string>
  buildId: string
  manifest: TargetManifest | undefined
  keepBuilds: number
}): DeployPlan {
  const { files, buildId, keepBuilds } = input
  const before = input.manifest ?? { format: 1, buildId: '', builds: 0, files: {}, gone: {} }
  const builds = before.builds + (before.buildId === buildId ? 0 : 1)
  const uploads: Record<DeployStep, string[]> = { hashed: [], pages: [], 'site files': [], latest: [] }
  const nextFiles: Record<string, string> = {}
  const gone: Record<string, number> = {}
  for (const [path, hash] of files) {
    nextFiles[path] = hash
    if (before.files[path] !== hash) uploads[stepOf(path)].push(path)
  }
  const deletes: string[] = []
  for (const [path, hash] of Object.entries(before.files)) {
    if (files.has(path)) continue
    const leftAt = before.gone[path] ?? builds
    // as a build keeps the files of its last `keepBuilds` builds, itself included (kept-builds.ts)
    if (builds - leftAt + 1 >= keepBuilds) deletes.push(path)
    else {
      nextFiles[path] = hash
      gone[path] = leftAt
    }
  }
  for (const list of Object.values(uploads)) list.sort(compareStrings)
  deletes.sort(compareStrings)
  return { uploads, deletes, next: { format: 1, buildId, builds, files: nextFiles, gone } }
}
