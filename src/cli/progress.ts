/**
 * Build progress on stderr. On a terminal: one line (done/total, pages/s,
 * failures) redrawn at most PROGRESS_REDRAW_MS apart. Elsewhere (CI, pipes):
 * a line per locale, nothing per page.
 */
import type { BuildLogger, BuildProgress } from '../index.js'
import { toTerminalLine } from './terminal.js'

/** Minimum time between two redraws of the progress bar (at most ~10 per second). */
export const PROGRESS_REDRAW_MS = 100
const BAR_WIDTH = 24

export interface ProgressReporter {
  onProgress(event: BuildProgress): void
  logger: BuildLogger
  /** Draws the last state and ends the line. */
  stop(): void
}

export interface ProgressOptions {
  stream: { write(text: string): unknown }
  /** Draw the one-line bar (a TTY, not CI, progress not turned off). */
  interactive: boolean
  now?: () => number
}

/** True when `CI` says so: set to anything but empty, `0` or `false` (`CI=true`, `CI=1`). */
const isCI = (value: string | undefined): boolean => !['', '0', 'false'].includes((value ?? '').toLowerCase())

/**
 * True when the bar should be drawn: a TTY, not CI, `TERM` not `dumb` (a terminal that moves no cursor
 * and clears no line: Emacs shells, some IDE consoles, where the bar's escapes would print as text), and
 * progress not turned off.
 */
export const isInteractive = (options: {
  isTTY: boolean | undefined
  env: Record<string, string | undefined>
  progress: boolean
}): boolean => options.progress && Boolean(options.isTTY) && !isCI(options.env.CI) && options.env.TERM !== 'dumb'

/** The rate is shown once pages have come for this long: over less, it says more about start-up than about the build. */
const PROGRESS_RATE_AFTER_MS = 1000

/** `[######------] 120/300 · 85.2 pages/s · 0 failures`; in the first second `[------------] 3/300 · 0 failures`. */
export function formatProgressLine(p: { done: number; total: number; failures: number; elapsedMs: number }): string {
  const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 0
  const filled = Math.round(ratio * BAR_WIDTH)
  const rate = p.elapsedMs >= PROGRESS_RATE_AFTER_MS ? ` · ${((p.done * 1000) / p.elapsedMs).toFixed(1)} pages/s` : ''
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total}${rate} · ${p.failures} failure${p.failures === 1 ? '' : 's'}`
}

export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const { stream, interactive } = options
  const now = options.now ?? Date.now
  // pages/s counts from the first page, not from start-up (bundling, initial data)
  let started: number | undefined
  let last = { done: 0, total: 0, failures: 0 }
  let drawnAt = -Infinity
  let drawn = false

  const draw = () => {
    stream.write(`\r\u001b[2K${formatProgressLine({ ...last, elapsedMs: now() - (started ?? now()) })}`)
    drawnAt = now()
    drawn = true
  }
  const clear = () => {
    if (drawn) stream.write('\r\u001b[2K')
    drawn = false
  }
  const line = (text: string) => {
    if (interactive) clear()
    stream.write(`${toTerminalLine(text)}\n`)
    if (interactive && last.total > 0) draw()
  }

  return {
    onProgress(event) {
      if (event.type === 'locale') return line(`${event.locale}: initial data in, ${event.links} page links`)
      started ??= now()
      last = { done: event.done, total: event.total, failures: event.failures }
      if (interactive && now() - drawnAt >= PROGRESS_REDRAW_MS) draw()
    },
    logger: { info: line, warn: line },
    stop() {
      if (!interactive || last.total === 0) return
      draw()
      stream.write('\n')
      drawn = false
    },
  }
}
