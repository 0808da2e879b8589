/**
 * `dir:PATH`: a folder a web server serves. Each file is copied to a temporary name beside its place,
 * then renamed over it, so that the server never sends half a file. The manifest is `PATH/.site-deploy.json`.
 */
import { randomBytes } from 'node:crypto'
import { copyFile, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileStamp } from '../../build/incremental/disk.js'
import { projectSourceHolding } from '../../build/output/output.js'
import { isOtherProcessStillRunning, processTag, takeLock } from '../../build/output/owner.js'
import { resolveInside } from '../../build/output/write.js'
import { errors, messageOf } from '../../errors.js'
import { makeFolders } from '../../project/folders.js'
import { isInsideOrEqual, realPath } from '../../project/inside.js'
import { readRecordFile } from './record-file.js'
import { type DeployTarget, type OtherSite, TARGET_LOCK_FILE, TARGET_RECORD_FILES } from './types.js'

const OWNER = processTag()
const tempName = (dest: string): string => `${dest}.site-tmp-${OWNER}-${randomBytes(4).toString('hex')}`
/** A temporary file of tempName's, with the process that made it (and when it started, if named). */
const TEMP_RE = /\.site-tmp-(\d+)-(?:(\d+)-)?[0-9a-f]{8}$/

/**
 * Removes the temporary files of deploys that were killed half way (a kill -9 between a copy and its rename):
 * the web server would serve them for ever. A live process's are its own, and stay.
 */
async function removeLeftTemps(root: string): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  for (const entry of entries) {
    const [, pid, start] = (entry.isFile() && TEMP_RE.exec(entry.name)) || []
    if (pid !== undefined && !isOtherProcessStillRunning(Number(pid), start))
      await rm(join(entry.parentPath, entry.name), { force: true })
  }
}

async function replaceFile(dest: string, write: (temp: string) => Promise<void>): Promise<void> {
  await makeFolders(dirname(dest))
  const temp = tempName(dest)
  try {
    await write(temp)
    await rename(temp, dest)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/**
 * Removes `folder` and those above it, up to `root`, while each is empty: as a build leaves no empty folder in its
 * output. A web server answers a removed page's empty folder 403 (or lists it), not with the 404 page. Another delete
 * of the deploy removes a folder that still held its file.
 */
async function removeEmptyFolders(root: string, folder: string): Promise<void> {
  for (let at = folder; at !== root && isInsideOrEqual(root, at); at = dirname(at)) {
    try {
      await rmdir(at)
    } catch {
      return // not empty (or not a folder): nor are those above it
    }
  }
}

/**
 * `otherSites`: the config's other sites, whose output folders (their builds replace them) the deploy may not
 * write into or hold either. `projectRoot`: the project, whose public/, templates/, config/ and .site/ (which builds
 * read) it may not write into.
 */
export function createDirTarget(
  path: string,
  outDir: string,
  otherSites: readonly OtherSite[] = [],
  projectRoot?: string,
): DeployTarget {
  const root = resolve(path)
  const name = `dir:${root}`
  // compared where links lead: a link to the output folder is the output folder
  const outputs = [
    { dir: resolve(outDir), of: '' },
    ...otherSites.map((o) => ({ dir: resolve(o.outDir), of: ` of ${o.host}` })),
  ]
  /** Where the folder is once its links are followed, refused when it and an output folder hold one another. */
  const whereRootIs = (): string => {
    const real = realPath(root)
    for (const { dir, of } of outputs) {
      const realOut = realPath(dir)
      if (isInsideOrEqual(real, realOut) || isInsideOrEqual(realOut, real))
        throw errors.usage(`The deploy folder ${root} and the output folder ${dir}${of} may not hold one another`)
    }
    const source = projectRoot === undefined ? undefined : projectSourceHolding(real, projectRoot)
    if (source) throw errors.usage(`Refusing to deploy into ${root}: ${source}`)
    return real
  }
  let realRoot = whereRootIs()
  const fail = (what: string) => (error: unknown) => {
    throw errors.deployFailed(name, `${what}: ${messageOf(error)}`, error)
  }
  /**
   * Where a file of the target is, refused when a link inside the target (a folder someone made a link) leads
   * its folder out of the target: nothing is written or deleted there, no folder is made there.
   */
  const placeOf = (file: string): string => {
    const dest = resolveInside(root, file)
    const folder = realPath(dirname(dest))
    if (isInsideOrEqual(realRoot, folder)) return dest
    // the folder itself was made a link since (a web root switched to a new release): files go where it leads now
    realRoot = whereRootIs()
    if (!isInsideOrEqual(realRoot, folder))
      throw errors.deployFailed(name, `${file}: a link inside the target leads its folder out of ${root}`)
    return dest
  }
  const remove = async (file: string) => {
    const dest = placeOf(file)
    await rm(dest, { force: true }).catch(fail(`removing ${file}`))
    await removeEmptyFolders(root, dirname(dest))
  }
  let swept = false
  return {
    name,
    async hold() {
      const lock = join(root, TARGET_LOCK_FILE)
      // a folder that cannot be made (a file in its place) holds nothing: the deploy's first read says why
      try {
        await makeFolders(root)
      } catch {
        return async () => {}
      }
      return takeLock(lock, {
        held: (pid) => errors.deployBusy(name, pid, lock),
        failed: (why, cause) => errors.deployFailed(name, `locking ${lock}: ${why}`, cause),
      })
    },
    async heldPaths() {
      // a file removed from the web root by hand (or by a clean-up job) is sent again, as one gone from a bucket
      const held = new Set<string>()
      // a link in it (a folder made one) is looked through, once, where it leads inside it: placeOf writes there
      const inside = realPath(root)
      const walked = new Set([inside])
      const walk = async (folder: string): Promise<boolean> => {
        const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => undefined)
        for (const entry of entries ?? []) {
          const path = join(entry.parentPath, entry.name)
          if (entry.isFile()) held.add(relative(root, path).split(sep).join('/'))
          else if (entry.isSymbolicLink()) {
            const real = realPath(path)
            if (!isInsideOrEqual(inside, real) || walked.has(real)) continue
            walked.add(real)
            await walk(path)
          }
        }
        return entries !== undefined
      }
      return (await walk(root)) ? held : undefined
    },
    readRecord: (record) =>
      readRecordFile(join(root, TARGET_RECORD_FILES[record])).catch(fail(`reading ${TARGET_RECORD_FILES[record]}`)),
    manifestStamp: async () => fileStamp(join(root, TARGET_RECORD_FILES.manifest)),
    upload: async (file) =>
      replaceFile(placeOf(file.path), (temp) => copyFile(file.source, temp)).catch(fail(`copying ${file.path}`)),
    remove,
    async commit() {
      // once a process: a publisher deploys every edit, and the folder's walk is not to be paid each time
      if (swept) return
      swept = true
      await removeLeftTemps(root)
    },
    async writeRecord(record, json) {
      const file = join(root, TARGET_RECORD_FILES[record])
      await replaceFile(file, (temp) => writeFile(temp, json)).catch(fail(`writing ${TARGET_RECORD_FILES[record]}`))
      return fileStamp(file)
    },
    removeRecord: (record) => remove(TARGET_RECORD_FILES[record]),
    close: async () => {},
  }
}
