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

  const run = async (): Promise<void> => {
    while (changed.size && !closed) {
      const batch = [...changed]
      changed = new Set()
      await options.onChange(batch).catch(() => {})
    }
    running = undefined
  }
  const schedule = (path: string) => {
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
