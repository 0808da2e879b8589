/**
 * Atomic output: a build writes into a temporary folder beside OUT and only a
 * build without failures swaps it in. A failed or interrupted build removes its
 * temporary folder and leaves OUT exactly as it was; a build that was killed
 * (SIGKILL, a lost CI runner) leaves it behind, and the next build removes it.
 */
import { randomBytes } from 'node:crypto'
import { constants, readdirSync, renameSync, rmSync } from 'node:fs'
import { access, lstat, mkdir, readdir, readFile, realpath, rename, rmdir, unlink } from 'node:fs/promises'
import { basename, dirname, join, parse, resolve } from 'node:path'
import type { ResolvedSite } from '../../config/types.js'
import { errors, isSiteError, messageOf } from '../../errors.js'
import { makeFolders } from '../../project/folders.js'
import { isInsideOrEqual, realPath } from '../../project/inside.js'
import { readRegularFile } from '../../project/untrusted-file.js'
import {
  BUILD_STORE_ASIDE_FILE,
  BUILD_STORE_FILE,
  BUILDS_DIR,
  CACHE_DIR,
  isContentHashedFile,
  LATEST_MANIFEST_FILE,
} from '../../shared/layout.js'
import { MAX_LATEST_MANIFEST_BYTES, readLatestFields } from './manifest.js'
import { isOtherProcessStillRunning, lockHolder, processTag, removeOwnLock, takeLock } from './owner.js'
import { resolveInside } from './write.js'

export interface OutputFolders {
  /** The final output folder (absolute). */
  outDir: string
  /** Where this build writes: `.<name>-tmp-<pid>-<start>-<random>` beside OUT. */
  tempDir: string
  /** Where the previous OUT goes during the swap: `.<name>-old-<pid>-<start>-<random>`. */
  oldDir: string
}

/** What OUT holds before a build: nothing, an empty folder, a previous `site` output (its manifest), or something else. */
export type OutDirContents = 'missing' | 'empty' | 'site-output' | 'other'

/** The project's folders a build reads, which OUT (replaced by every build) may not be or be inside. */
const PROJECT_SOURCES = [
  { dir: 'public', use: 'which the build copies from' },
  { dir: 'templates', use: 'which the build renders with' },
  { dir: 'config', use: 'which the build reads its configuration from' },
  { dir: CACHE_DIR, use: "the project's cache, which holds site publish's journal" },
]

/**
 * Checks that OUT is a folder a build may replace: not the file-system root,
 * not the project root or one of its parents, not inside `public/`, `templates/`, `config/` or `.site/`.
 * Where links lead (an `--out` that is a link to `templates/`, a `public/` that is a link to a shared folder), as a
 * build would write there.
 */
export function checkOutDir(outDir: string, projectRoot: string): void {
  const out = resolve(outDir)
  const [realOut, root] = [realPath(out), realPath(resolve(projectRoot))]
  if (realOut === parse(realOut).root)
    throw errors.usage(`Refusing to build into ${out}: the output folder cannot be a file-system root`)
  if (isInsideOrEqual(realOut, root))
    throw errors.usage(
      `Refusing to build into ${out}: it contains the project (${root}), and a build replaces its output folder`,
    )
  const source = projectSourceHolding(realOut, root)
  if (source) throw errors.usage(`Refusing to build into ${out}: ${source}`)
}

/**
 * Why no site may be written into `real` (a folder's real path): "it is inside templates/, which the build renders
 * with" when one of the project's sources holds it, else undefined.
 */
export function projectSourceHolding(real: string, projectRoot: string): string | undefined {
  const root = realPath(resolve(projectRoot))
  const source = PROJECT_SOURCES.find(({ dir }) => isInsideOrEqual(realPath(join(root, dir)), real))
  return source && `it is inside ${source.dir}/, ${source.use}`
}

const exists = async (path: string): Promise<boolean> => {
  try {
    await lstat(path)
    return true
  } catch {
    return false
  }
}

/** What OUT holds; a previous output is recognised by its `_site/builds/latest.json`. */
export async function inspectOutDir(outDir: string): Promise<OutDirContents> {
  const out = resolve(outDir)
  let stats: Awaited<ReturnType<typeof lstat>>
  try {
    stats = await lstat(out)
  } catch {
    return 'missing'
  }
  if (!stats.isDirectory()) return 'other'
  if ((await readdir(out)).length === 0) return 'empty'
  return (await exists(join(out, LATEST_MANIFEST_FILE))) ? 'site-output' : 'other'
}

/**
 * Refuses (OUT_DIR_NOT_SITE_OUTPUT, exit code 2) an OUT that a build must not replace: a file, or a
 * folder that holds something else than a previous `site` output, unless `force`. Resolves to what OUT holds.
 */
export async function checkOutDirContents(outDir: string, options: { force?: boolean } = {}): Promise<OutDirContents> {
  const out = resolve(outDir)
  const contents = await inspectOutDir(out)
  if (contents !== 'other' || options.force) return contents
  throw errors.outDirNotSiteOutput(out, await whyNotSiteOutput(out))
}

/**
 * Refuses (OUT_DIR_NOT_SITE_OUTPUT) a previous output of another site of the config, unless `force`: its
 * `latest.json` names that site's host (`--site A --out <B's folder>` would replace B's output, which a deploy of
 * B's folder would then publish as B). An output that names no site, or one the config does not know, is not refused.
 */
export async function checkOutDirSite(
  outDir: string,
  site: ResolvedSite,
  sites: readonly ResolvedSite[],
  options: { force?: boolean } = {},
): Promise<void> {
  if (options.force) return
  const read = await readRegularFile(join(outDir, LATEST_MANIFEST_FILE), MAX_LATEST_MANIFEST_BYTES)
  if (read.type === 'refused') return
  const named = readLatestFields(read.bytes).site
  if (typeof named !== 'string' || site.hostnames.includes(named)) return
  const other = sites.find((s) => s !== site && s.hostnames.includes(named))
  if (other)
    throw errors.outDirNotSiteOutput(
      resolve(outDir),
      `it holds the output of ${other.hostnames[0]}, another site of the config (build that one with --site ${other.hostnames[0]})`,
    )
}

/** Why OUT, which inspectOutDir found to hold 'other', is no site output. */
export async function whyNotSiteOutput(outDir: string): Promise<string> {
  const stats = await lstat(outDir)
  if (stats.isDirectory()) return `it is not empty and holds no previous site output (no ${LATEST_MANIFEST_FILE})`
  // a build puts its folder in OUT's place, and a deploy reads none through a link: pass the folder itself
  if (stats.isSymbolicLink()) return 'it is a symbolic link, not a folder (pass the folder it leads to)'
  return 'it is a file, not a folder'
}

/**
 * Who holds OUT while it runs, each by a lock file beside OUT (never in it: a build replaces OUT) that names
 * its process: a `site publish`, between its builds (publish/lock.ts), a CLI `site build`, for its run, and a
 * CLI `site deploy`, while it reads OUT. Each takes its own lock, then looks at the others': of two that start
 * at once, one at least sees the other.
 */
export type OutputHolder = 'publish' | 'build' | 'deploy'
const OUTPUT_HOLDERS: readonly OutputHolder[] = ['publish', 'build', 'deploy']

/** `.<name>-<holder>.lock` beside OUT (removeStaleSiblings leaves them alone). */
export const outputLockFile = (outDir: string, holder: OutputHolder): string => {
  const out = resolve(outDir)
  return join(dirname(out), `.${basename(out)}-${holder}.lock`)
}

/** What a build refused OUT is advised, by who holds it. */
const buildAdvice = (holder: OutputHolder): string =>
  holder === 'publish'
    ? 'publish through it (its webhooks), or stop it first'
    : 'wait for it to finish, or build into another --out'

/**
 * Refuses (OUT_DIR_IN_USE) to build into an OUT that another process's `site publish` or `site deploy` holds. The
 * build lock is not looked at here: the CLI holds it around build(), and a publisher's build must not fail
 * because a `site build` held it for the moment it took to be refused.
 */
export async function checkOutputLock(outDir: string): Promise<void> {
  const held = await heldBy(outDir, ['publish', 'deploy'])
  if (held) throw errors.outDirInUse(resolve(outDir), held.holder, held.pid, buildAdvice(held.holder))
}

/** The first of `holders` whose lock on OUT a running process (not this one) holds, with its process id. */
async function heldBy(
  outDir: string,
  holders: readonly OutputHolder[],
): Promise<{ holder: OutputHolder; pid: number } | undefined> {
  for (const holder of holders) {
    const pid = await lockHolder(outputLockFile(outDir, holder))
    if (pid !== undefined) return { holder, pid }
  }
  return undefined
}

/**
 * Takes OUT's lock for `holder` (its parent made when missing), or throws OUT_DIR_IN_USE with `advice` for the
 * other process that holds OUT, by either lock. Resolves to its release.
 */
export async function lockOutput(
  outDir: string,
  holder: OutputHolder,
  advice: (other: OutputHolder) => string,
  options: { makeParent?: boolean } = {},
): Promise<() => Promise<void>> {
  const out = resolve(outDir)
  const file = outputLockFile(out, holder)
  let release: () => Promise<void>
  try {
    if (options.makeParent !== false) await makeFolders(dirname(file))
    release = await takeLock(file, {
      held: (pid) => errors.outDirInUse(out, holder, pid, advice(holder)),
      failed: (why, cause) => (cause instanceof Error ? cause : new Error(why)),
    })
  } catch (error) {
    if (isSiteError(error)) throw error
    // as a build's temporary folder would be refused: the file in the way, the read-only file system
    throw errors.outDirUnwritable(out, await whyNotMade(file, error as NodeJS.ErrnoException), error)
  }
  const held = await heldBy(
    out,
    OUTPUT_HOLDERS.filter((other) => other !== holder),
  )
  if (!held) return release
  await release()
  throw errors.outDirInUse(out, held.holder, held.pid, advice(held.holder))
}

/** Takes OUT's lock for a CLI `site build`'s run (not build()'s: a publisher builds under its own); resolves to its release. */
export const lockBuildOutput = (outDir: string): Promise<() => Promise<void>> =>
  lockOutput(outDir, 'build', buildAdvice)

/**
 * Removes the temporary folders and the build lock this process left beside OUT when its build's thread was ended
 * (build-host.ts: a render that ran too long): only ever before that build moved a file into OUT.
 */
export async function removeOwnBuildLeftovers(outDir: string): Promise<void> {
  const out = resolve(outDir)
  const ours = siblingName(out, 'tmp', `${processTag()}-`)
  for (const name of await readdir(dirname(out)).catch(() => [] as string[]))
    if (name.startsWith(ours)) removeLeftover(join(dirname(out), name))
  await removeOwnLock(outputLockFile(out, 'build'))
}

/** What a deploy refused OUT is advised, by who holds it. */
const deployAdvice = (holder: OutputHolder): string =>
  holder === 'publish' ? 'it deploys what it publishes (publish.deploy), or stop it first' : 'wait for it to finish'

/**
 * Takes OUT's lock for a CLI `site deploy`'s run; resolves to its release. A build that swapped its output in
 * while a deploy reads OUT would have it send pages of the new build after the assets of the old one, under
 * the old one's manifest. Where OUT's folder is missing or cannot be written to, no build can replace OUT
 * either, and nothing is held (the deploy then says what it finds there).
 */
export async function lockDeployOutput(outDir: string): Promise<() => Promise<void>> {
  try {
    return await lockOutput(outDir, 'deploy', deployAdvice, { makeParent: false })
  } catch (error) {
    if (isSiteError(error) && error.code === 'OUT_DIR_UNWRITABLE') return async () => {}
    throw error
  }
}

/** `.out-tmp-<id>` / `.out-old-<id>` beside OUT; the id is `<pid>-<start>-<random>` (processTag) (or a build id, before pids were recorded). */
const siblingName = (out: string, kind: 'tmp' | 'old', id: string): string => `.${basename(out)}-${kind}-${id}`

/**
 * Removes what earlier builds left beside OUT when they were killed: temporary folders and
 * previous outputs moved aside for a swap. Folders of a build that is still running (its pid is alive, and the
 * process with it started when the name says) are left alone. When OUT itself is missing because a swap was cut between its two
 * renames, the previous output moved aside is put back first. Resolves to the names removed.
 */
export async function removeStaleSiblings(outDir: string): Promise<string[]> {
  const out = resolve(outDir)
  const parent = dirname(out)
  const prefix = `.${basename(out)}-`
  const names = (await readdir(parent).catch(() => [] as string[])).filter((name) => name.startsWith(prefix))
  const stale = names.flatMap((name) => {
    // `tmp-<pid>-<start>-<hex>` (processTag); `tmp-<pid>-<hex>` of an earlier version is judged by the id alone
    const match = /^(tmp|old)-(?:(\d+)-(?:(\d+)-)?)?[A-Za-z0-9_-]+$/.exec(name.slice(prefix.length))
    if (!match || (match[2] !== undefined && isOtherProcessStillRunning(Number(match[2]), match[3]))) return []
    return [{ name, kind: match[1] as 'tmp' | 'old' }]
  })
  const moved = stale.find((s) => s.kind === 'old')
  if (moved && !(await exists(out))) {
    await rename(join(parent, moved.name), out)
    stale.splice(stale.indexOf(moved), 1)
  }
  for (const { name } of stale) removeTree(join(parent, name))
  return stale.map((s) => s.name)
}

/**
 * Why a folder could not be made at PATH, in words, from its nearest existing ancestor: a file in the way, or a
 * folder that may not be written (Node's recursive mkdir reports a read-only file system as ENOENT).
 */
async function whyNotMade(path: string, error: NodeJS.ErrnoException): Promise<string> {
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    const stats = await lstat(dir).catch(() => undefined)
    if (!stats) continue
    if (!stats.isDirectory()) return `${dir} is a file, not a folder`
    const refused = await access(dir, constants.W_OK).then(
      () => undefined,
      (denied: NodeJS.ErrnoException) => denied.code,
    )
    if (refused === 'EROFS') return `${dir} is on a read-only file system (EROFS)`
    return refused ? `no permission to write in ${dir} (${refused})` : messageOf(error)
  }
  return messageOf(error)
}

/** Creates the empty temporary folder beside OUT (OUT_DIR_UNWRITABLE, exit code 2, when it cannot be made). */
export async function createTempOutput(outDir: string): Promise<OutputFolders> {
  const out = resolve(outDir)
  const id = `${processTag()}-${randomBytes(6).toString('hex')}`
  const beside = (kind: 'tmp' | 'old') => join(dirname(out), siblingName(out, kind, id))
  const folders = { outDir: out, tempDir: beside('tmp'), oldDir: beside('old') }
  try {
    await makeFolders(dirname(out))
    await mkdir(folders.tempDir)
  } catch (error) {
    throw errors.outDirUnwritable(out, await whyNotMade(folders.tempDir, error as NodeJS.ErrnoException), error)
  }
  // a mount point (a volume mounted at OUT): nothing moves in from beside it (EXDEV), nor is OUT moved aside (EBUSY)
  if (await isMountPoint(out, folders.tempDir)) {
    await rmdir(folders.tempDir)
    throw errors.outDirUnwritable(
      out,
      `it is a mount point, which cannot be swapped for the folder the build writes beside it: build into a folder inside it, or deploy there (site deploy dir:${out})`,
    )
  }
  return folders
}

/**
 * Whether the folder OUT is a mount point: on another device than `beside` (a volume), or, for a bind mount of a
 * folder of the same file system (a container's project and output mounted from one disk), in the mount table of
 * Linux (`\040` a space in its paths). A link at OUT is none: the link itself is moved aside.
 */
async function isMountPoint(out: string, beside: string): Promise<boolean> {
  const stats = await lstat(out).catch(() => undefined)
  if (!stats?.isDirectory()) return false
  if (stats.dev !== (await lstat(beside)).dev) return true
  const table = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '')
  const real = await realpath(out)
  return table.split('\n').some((line) => {
    const at = line.split(' ')[4] ?? ''
    return at.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8))) === real
  })
}

/**
 * Puts the temporary folder in OUT's place: OUT is renamed away, the temporary
 * folder renamed to OUT, then the old output removed. Two renames on one file
 * system, so a host never sees a half-written folder.
 */
export async function swapInOutput({ outDir, tempDir, oldDir: old }: OutputFolders): Promise<void> {
  const hadOutput = await exists(outDir)
  if (hadOutput) await rename(outDir, old)
  try {
    await rename(tempDir, outDir)
  } catch (error) {
    if (hadOutput) await rename(old, outDir)
    throw error
  }
  if (hadOutput) removeLeftover(old)
}

/** Where a file goes in the order of a commit: content-hashed files first, the manifests last, the store at the very end. */
function commitRank(path: string): number {
  if (path === BUILD_STORE_FILE) return 4
  if (path === LATEST_MANIFEST_FILE) return 3
  if (path.startsWith(`${BUILDS_DIR}/`)) return 2
  if (isContentHashedFile(path)) return 0
  return 1
}

/**
 * Folders of OUT as a commit uses them: each checked with lstat, from OUT down, to be a real folder
 * (never a symbolic link), so that every write, unlink and rmdir stays inside OUT's real path even
 * if something changed OUT since the build walked it. Where the new output needs a folder and finds
 * a file or a link (nothing of the new output), that entry goes first.
 */
function createFolderGuard(outDir: string) {
  const real = new Set<string>([outDir])
  const inside = (dir: string): boolean => dir !== outDir && isInsideOrEqual(outDir, dir)
  return {
    /** True when `dir` is a real folder inside OUT (made, with its parents, when `make`). */
    async check(dir: string, make: boolean): Promise<boolean> {
      if (real.has(dir)) return true
      if (!inside(dir) || !(await this.check(dirname(dir), make))) return false
      const stats = await lstat(dir).catch(() => undefined)
      if (stats?.isDirectory()) {
        real.add(dir)
        return true
      }
      if (!make) return false
      if (stats) await unlink(dir)
      await mkdir(dir)
      real.add(dir)
      return true
    },
    forget(dir: string): void {
      real.delete(dir)
    },
  }
}

/**
 * Applies an incremental build to OUT in place: the files it wrote (staged in the temporary
 * folder) are renamed into OUT, content-hashed files first, pages next, the manifests last, and in each of
 * these the files OUT does not hold yet before those that replace one: a served page that changed never links
 * to a new page (a renamed slug, a translation's) that is not there yet;
 * then the files of the previous output that this build does not have are removed, and the folders
 * left empty (`folders`: the previous output's empty ones, and those of removed files, with their parents). Files the build kept
 * are not touched, so they keep their modification times. The build store goes first and comes back
 * last: should the commit be cut short, the next build finds no store and starts from scratch
 * instead of trusting it. It goes aside, not away (BUILD_STORE_ASIDE_FILE): that build still carries the
 * slug history of the last complete one (loadPrevious), and the side copy is removed once the new store is
 * in. Every folder is checked on the way (createFolderGuard).
 */
export async function applyToOutput(
  { outDir, tempDir }: OutputFolders,
  changes: {
    written: readonly string[]
    removed: readonly string[]
    folders?: readonly string[]
    /** The files OUT holds before the commit: in each rank, the files new to OUT go before those replacing one. */
    existing?: { has(path: string): boolean }
  },
): Promise<void> {
  const guard = createFolderGuard(outDir)
  const replaces = (path: string) => Number(changes.existing?.has(path) ?? false)
  const written = [...new Set(changes.written)].sort(
    (a, b) => commitRank(a) - commitRank(b) || replaces(a) - replaces(b),
  )
  // Any change changes the store (it holds every file's hash); nothing written and nothing removed: nothing to do.
  const storeWritten = written.includes(BUILD_STORE_FILE)
  if (storeWritten) await moveStoreAside()
  for (const path of written) if (path !== BUILD_STORE_FILE) await moveIn(path)
  const emptied = new Set<string>()
  // a side copy an earlier cut commit left is the store just moved aside now: it goes last
  for (const path of changes.removed) {
    if (path === BUILD_STORE_ASIDE_FILE) continue
    await removeFile(path)
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) emptied.add(dir)
  }
  for (const folder of changes.folders ?? []) for (let dir = folder; dir !== '.'; dir = dirname(dir)) emptied.add(dir)
  // deepest first; a folder that still holds something stays
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
    const target = resolveInside(outDir, dir)
    if (!(await guard.check(target, false))) continue
    await rmdir(target).then(
      () => guard.forget(target),
      () => undefined,
    )
  }
  if (storeWritten) await moveIn(BUILD_STORE_FILE)
  await removeFile(BUILD_STORE_ASIDE_FILE)
  removeLeftover(tempDir)

  /** The previous store to its side name (replacing a side copy left before), or away when it cannot go there. */
  async function moveStoreAside(): Promise<void> {
    const target = resolveInside(outDir, BUILD_STORE_FILE)
    if (!(await guard.check(dirname(target), false))) return
    await rename(target, resolveInside(outDir, BUILD_STORE_ASIDE_FILE)).catch(() => removeFile(BUILD_STORE_FILE))
  }

  async function removeFile(path: string): Promise<void> {
    const target = resolveInside(outDir, path)
    if (await guard.check(dirname(target), false)) await unlink(target).catch(() => undefined)
  }

  async function moveIn(path: string): Promise<void> {
    const target = resolveInside(outDir, path)
    if (!(await guard.check(dirname(target), true)))
      throw errors.writeOutside(path, 'a folder on its way is not a folder inside the output folder')
    // a folder where the new output has a file holds nothing of the new output
    if ((await lstat(target).catch(() => undefined))?.isDirectory()) removeTree(target)
    await rename(resolveInside(tempDir, path), target)
  }
}

/**
 * Removes what a build leaves beside OUT: a commit that is done (OUT is the new output), or a failed build's temporary
 * folder (its own failure is the one to report). A folder that cannot be removed (OUT's parent made read-only) is no
 * failure of the build, and the next build removes it (removeStaleSiblings).
 */
function removeLeftover(dir: string): void {
  try {
    removeTree(dir)
  } catch {}
}

/** Removes the temporary folder of a failed or interrupted build. */
export async function discardOutput({ tempDir }: OutputFolders): Promise<void> {
  removeLeftover(tempDir)
}

/**
 * Removes a whole output tree. Synchronously on purpose: fs.promises.rm walks a tree of
 * 60,000 files with that many promises at once (+157 MB RSS measured), rmSync one by one (+5 MB).
 * A tree with paths longer than the system takes (a previous output someone nested deep) is lifted first.
 */
function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw error
    liftDeepFolders(dir)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A folder whose path is longer than this (in bytes) is moved up by liftDeepFolders; a name adds at most 255. */
const LIFT_PATH_BYTES = 2048

/**
 * Moves every folder of `dir` whose path is longer than LIFT_PATH_BYTES up into `dir` itself, under a short name:
 * afterwards no path under `dir` is longer than the system takes, and rmSync can remove it. Nothing leaves `dir`.
 */
function liftDeepFolders(dir: string): void {
  const pending = [dir]
  let lifted = 0
  while (pending.length > 0) {
    const at = pending.pop()!
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      let path = join(at, entry.name)
      if (Buffer.byteLength(path) > LIFT_PATH_BYTES) {
        const to = join(dir, `.lifted-${lifted++}-${randomBytes(6).toString('hex')}`)
        renameSync(path, to)
        path = to
      }
      pending.push(path)
    }
  }
}
