/**
 * Pure: what a deploy uploads and deletes, and in which order, from the output's files (path -> content
 * hash, as the build state records them) and the target's own manifest (what it received before).
 * Order: content-hashed assets and data, then pages, payloads and everything else, then sitemaps,
 * `_redirects`, `robots.txt` and the build state, then `latest.json` last: no step shows a file that
 * names one of a later step. In each step the files new to the target go before those that replace one: a changed
 * page never links to a new page (or a sitemap index to a part) that is not there yet. A content-hashed file gone
 * from the output stays on the target until `keepBuilds` builds (this one included) have gone without it, as the
 * build itself keeps earlier builds' files; any other file gone from the output is deleted.
 * Paths a deploy that did not finish may have changed (its pending record) hold what the target cannot
 * tell: they are sent again while the output has them, and deleted in time when it does not.
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

/**
 * The target's record of what it holds: kept on the target itself (a folder, a bucket) or beside it, as JSON
 * (renderTargetManifest). Paths are keys of Maps, never of objects: a file may be called `constructor`, and
 * 60,000 of them (30,000 pages) are a dictionary V8 is slow to fill and ask.
 */
export interface TargetManifest {
  format: 1
  /** The build the target holds (its `latest.json` id). */
  buildId: string
  /** Builds the target received, counted when the build id changes. */
  builds: number
  /** Every file on the target: path -> content hash. */
  files: Map<string, string>
  /** Files no longer in the output, still on the target: path -> the `builds` count when they left. */
  gone: Map<string, number>
}

export const DEPLOY_STEPS = ['hashed', 'pages', 'site files', 'latest'] as const
export type DeployStep = (typeof DEPLOY_STEPS)[number]

export interface DeployPlan {
  /**
   * Files to upload, by step: in each, those the target does not hold yet, then those it holds (`replaces`), each
   * part sorted. A changed page that links to a new one is sent once the new page (and its payload) is there.
   */
  uploads: Record<DeployStep, string[]>
  /** The uploads that replace a file the target holds: sent after the step's new files. */
  replaces: Set<string>
  deletes: string[]
  /** The manifest the target holds once the plan is carried out. */
  next: TargetManifest
}

/** The hash of a path whose content on the target is unknown: no file of an output has it. */
const UNKNOWN_HASH = ''

const SITEMAP_PART_RE = /^sitemap(?:-\d+)?\.xml$/

/** The step of a file of the output. */
export function stepOf(path: string): DeployStep {
  if (path === LATEST_MANIFEST_FILE) return 'latest'
  if (isContentHashedFile(path)) return 'hashed'
  if (path === REDIRECTS_FILE || path === ROBOTS_FILE || path === SITEMAP_FILE || path === BUILD_STORE_FILE)
    return 'site files'
  return SITEMAP_PART_RE.test(path) ? 'site files' : 'pages'
}

/** A relative path that stays inside the target: no empty, `.` or `..` segment, no backslash or control character. */
function isTargetPath(path: string): boolean {
  if (path === '' || path.length > 4096 || /[\\\u0000-\u001f\u007f]/.test(path)) return false
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}

/**
 * A target manifest read back (untrusted: the target may hold anything); undefined when it is not one. Its
 * paths are those of an output's files (as a build state holds them): a path that leaves the target's folder
 * or prefix (`../live/index.html`, `/x`) would be deleted there.
 */
export function parseTargetManifest(value: unknown): TargetManifest | undefined {
  if (!isRecord(value) || value.format !== 1 || typeof value.buildId !== 'string') return undefined
  const { buildId, builds } = value
  // counts as deploys write them: a file left at a build to come (1e300) would stay on the target for ever
  const isCount = (n: unknown, most: number): n is number =>
    Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= most
  if (!isCount(builds, Number.MAX_SAFE_INTEGER) || !isRecord(value.files) || !isRecord(value.gone)) return undefined
  const files = new Map<string, string>()
  for (const [path, hash] of Object.entries(value.files)) {
    if (typeof hash !== 'string' || !isTargetPath(path)) return undefined
    files.set(path, hash)
  }
  const gone = new Map<string, number>()
  for (const [path, at] of Object.entries(value.gone)) {
    if (!isCount(at, builds) || !isTargetPath(path)) return undefined
    gone.set(path, at)
  }
  return { format: 1, buildId, builds, files, gone }
}

/**
 * The paths of a pending record read back (untrusted), undefined when it is not one: then no path of the target
 * can be trusted to hold what its manifest says.
 */
export function parsePendingRecord(value: unknown): Set<string> | undefined {
  if (!isRecord(value) || value.format !== 1 || !Array.isArray(value.paths)) return undefined
  const paths = new Set<string>()
  for (const path of value.paths as unknown[]) {
    if (typeof path !== 'string' || !isTargetPath(path)) return undefined
    paths.add(path)
  }
  return paths
}

/** The pending record as the target keeps it while a deploy changes it: the paths it may change, sorted. */
export const renderPendingRecord = (paths: ReadonlySet<string>): string =>
  `{"format":1,"paths":${JSON.stringify([...paths].sort(compareStrings))}}`

/**
 * What a deploy may change before its manifest is written: what it sends and deletes, and the paths left unknown
 * by one that did not finish (until this one's manifest records them).
 */
export function pathsInDoubt(plan: DeployPlan, unknown: ReadonlySet<string>): Set<string> {
  const paths = new Set(unknown)
  for (const step of DEPLOY_STEPS) for (const path of plan.uploads[step]) paths.add(path)
  for (const path of plan.deletes) paths.add(path)
  return paths
}

/** A manifest's files, those of `unknown` (added when missing) with a hash no file has. */
function withUnknown(files: ReadonlyMap<string, string>, unknown: ReadonlySet<string>): Map<string, string> {
  const held = new Map(files)
  for (const path of unknown) held.set(path, UNKNOWN_HASH)
  return held
}

/** A Map as a JSON object, written entry by entry: no object of 90,000 keys is built only to be stringified. */
function mapToJson(map: ReadonlyMap<string, string | number>): string {
  const members: string[] = []
  for (const [key, value] of map) members.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
  return `{${members.join(',')}}`
}

/** The manifest as the target keeps it: JSON, read back by parseTargetManifest. */
export const renderTargetManifest = (manifest: TargetManifest): string =>
  `{"format":${manifest.format},"buildId":${JSON.stringify(manifest.buildId)},"builds":${manifest.builds},` +
  `"files":${mapToJson(manifest.files)},"gone":${mapToJson(manifest.gone)}}`

export function planDeploy(input: {
  /** The output's files: path -> content hash. */
  files: ReadonlyMap<string, string>
  buildId: string
  manifest: TargetManifest | undefined
  /** Paths whose content on the target is unknown (parsePendingRecord). */
  unknown?: ReadonlySet<string>
  keepBuilds: number
}): DeployPlan {
  const { files, buildId, keepBuilds } = input
  const before = input.manifest ?? { format: 1, buildId: '', builds: 0, files: new Map(), gone: new Map() }
  const builds = before.builds + (before.buildId === buildId ? 0 : 1)
  const uploads: Record<DeployStep, string[]> = { hashed: [], pages: [], 'site files': [], latest: [] }
  const replaces = new Set<string>()
  // what the target holds: an unknown path has a hash no file has, and is kept (in the manifest) until deleted;
  // the manifest itself while none is unknown (a publisher's every deploy: 60,000 paths at 30,000 pages)
  const held = input.unknown?.size ? withUnknown(before.files, input.unknown) : before.files
  const nextFiles = new Map(files)
  const gone = new Map<string, number>()
  for (const [path, hash] of files) {
    const stored = held.get(path)
    if (stored === hash) continue
    uploads[stepOf(path)].push(path)
    // a path whose content is unknown may be absent: it goes with the new files
    if (stored !== undefined && stored !== UNKNOWN_HASH) replaces.add(path)
  }
  const deletes: string[] = []
  for (const [path, hash] of held) {
    if (files.has(path)) continue
    const leftAt = before.gone.get(path) ?? builds
    // a content-hashed file stays while the build keeps it, for the tabs of its last `keepBuilds` builds, itself
    // included (kept-builds.ts); a page, payload or sitemap goes at once, as from the output: a tab that asks for one
    // gets a 404 and loads the page in full, and a page deleted in the CMS answers no more
    if (!isContentHashedFile(path) || builds - leftAt + 1 >= keepBuilds) deletes.push(path)
    else {
      nextFiles.set(path, hash)
      gone.set(path, leftAt)
    }
  }
  // new files first, then the ones they replace
  const order = (a: string, b: string) => Number(replaces.has(a)) - Number(replaces.has(b)) || compareStrings(a, b)
  for (const list of Object.values(uploads)) list.sort(order)
  deletes.sort(compareStrings)
  return { uploads, replaces, deletes, next: { format: 1, buildId, builds, files: nextFiles, gone } }
}
