import { stat } from 'node:fs/promises'
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

/** What tells one version of a file from the next: its inode, size and modification time ('' when it is gone). */
const versionOf = (path: string): Promise<string> =>
  stat(path).then(
    (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
    () => '',
  )

export async function watchProject(options: WatchOptions): Promise<ProjectWatcher> {
  const debounceMs = options.debounceMs ?? 80
  const watcher = watch(options.paths, {
    ignoreInitial: true,
    ...(options.ignored ? { ignored: options.ignored } : {}),
  })
  let changed = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let closed = false
  let lastChangeAt = 0

  const run = async (): Promise<void> => {
    while (changed.size && !closed) {
      const batch = [...changed]
      changed = new Set()
      const versions = await Promise.all(batch.map(versionOf))
      await options.onChange(batch).catch(() => {})
      // a file written again since, whose change chokidar may have dropped, is taken as changed
      await sleep(Math.max(0, lastChangeAt + CHANGE_THROTTLE_MS - Date.now()))
      const now = await Promise.all(batch.map(versionOf))
      for (const [i, path] of batch.entries()) if (now[i] !== versions[i]) changed.add(path)
    }
    running = undefined
  }
  const schedule = (path: string) => {
    lastChangeAt = Date.now()
    changed.add(path)
    clearTimeout(timer)
    timer = setTimeout(() => {
      running ??= run()
    }, debounceMs)
  }
  watcher.on('all', (_event, path) => schedule(path))
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
