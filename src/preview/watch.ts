import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { watch } from 'chokidar'

/**
 * Watches the project folders preview depends on and calls `onChange` after
 * changes settle. Calls never overlap: changes arriving during a reload
 * start one more reload when it ends.
 */
export interface ProjectWatcher {
  close(): Promise<void>
}

export interface WatchOptions {
  /** Folders and files to watch (missing ones are fine: chokidar picks them up when created). */
  paths: string[]
  onChange: (changed: string[]) => Promise<void>
  /** Wait this long after the last change before reloading (editors save in bursts). */
  debounceMs?: number
  /** Paths below these folders are ignored (generated caches). */
  ignored?: (path: string) => boolean
}

/**
 * chokidar passes on one change of a file in this time and drops the others, with no event after them: a file
 * saved twice in a row (a format-on-save) has its second save dropped when the first one's reload already read it.
 */
const CHANGE_THROTTLE_MS = 50

/** Files up to this size are told apart by their content; larger ones (a video in public/) by inode and time. */
const HASHED_UP_TO = 4 * 1024 * 1024

/**
 * What tells one version of a file from the next ('' when it is gone). By content where it is small: a modification
 * time can be as coarse as a second or two (HFS+, FAT, some network folders), so two saves of one size in the same
 * second would look alike.
 */
async function versionOf(path: string): Promise<string> {
  try {
    const s = await stat(path)
    if (!s.isFile() || s.size > HASHED_UP_TO) return `${s.ino}:${s.size}:${s.mtimeMs}`
    return createHash('sha1')
      .update(await readFile(path))
      .digest('base64')
  } catch {
    return ''
  }
}

export async function watchProject(options: WatchOptions): Promise<ProjectWatcher> {
  const debounceMs = options.debounceMs ?? 80
  const watcher = watch(options.paths, {
    ignoreInitial: true,
    ...(options.ignored ? { ignored: options.ignored } : {}),
  })
  let changed = new Set<string>()
  // paths whose first event of the batch made them: gone again by the reload, they were never a change (the
  // temporary file of a `sed -i` or an editor's atomic save, renamed over the file it saved)
  let appeared = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let closed = false
  let lastChangeAt = 0
  // the version of each changed file the last reload read: chokidar's own event for a save that the check below
  // already took can come after that reload, and is no change
  const loaded = new Map<string, string>()

  const run = async (): Promise<void> => {
    while (changed.size && !closed) {
      const paths = [...changed]
      const made = appeared
      changed = new Set() // before reading them: a change that comes meanwhile is the next batch's
      appeared = new Set()
      const versions = new Map(await Promise.all(paths.map(async (path) => [path, await versionOf(path)] as const)))
      const batch = [...versions.keys()].filter(
        (path) => loaded.get(path) !== versions.get(path) && !(made.has(path) && versions.get(path) === ''),
      )
      for (const [path, version] of versions) loaded.set(path, version)
      if (!batch.length) continue
      await options.onChange(batch).catch(() => {})
      // a file written again since, whose change chokidar may have dropped, is taken as changed
      await sleep(Math.max(0, lastChangeAt + CHANGE_THROTTLE_MS - Date.now()))
      const now = await Promise.all(batch.map(versionOf))
      for (const [i, path] of batch.entries()) if (now[i] !== versions.get(path)) changed.add(path)
    }
  }
  const schedule = (event: string, path: string) => {
    lastChangeAt = Date.now()
    if ((event === 'add' || event === 'addDir') && !changed.has(path)) appeared.add(path)
    changed.add(path)
    clearTimeout(timer)
    timer = setTimeout(() => {
      // cleared once the run has ended: a run that finds nothing to do ends before `??=` would have stored it
      running ??= run().finally(() => {
        running = undefined
      })
    }, debounceMs)
  }
  watcher.on('all', schedule)
  await new Promise<void>((done) => watcher.once('ready', () => done()))
  return {
    async close() {
      closed = true
      clearTimeout(timer)
      await watcher.close()
      await running
    },
  }
}
