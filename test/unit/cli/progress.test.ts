import { describe, expect, it } from 'vitest'
import { createProgressReporter, formatProgressLine, isInteractive } from '../../../src/cli/progress.js'

const sink = () => {
  const chunks: string[] = []
  return { chunks, stream: { write: (text: string) => chunks.push(text) } }
}

describe('progress', () => {
  it.each([
    [{ isTTY: true, env: {}, progress: true }, true],
    [{ isTTY: true, env: { CI: 'true' }, progress: true }, false],
    // CI=1 (and CI=TRUE, CI=yes) is CI too; CI=0, CI=false and an empty CI are not
    [{ isTTY: true, env: { CI: '1' }, progress: true }, false],
    [{ isTTY: true, env: { CI: 'TRUE' }, progress: true }, false],
    [{ isTTY: true, env: { CI: 'yes' }, progress: true }, false],
    [{ isTTY: true, env: { CI: '0' }, progress: true }, true],
    [{ isTTY: true, env: { CI: 'false' }, progress: true }, true],
    [{ isTTY: true, env: { CI: 'False' }, progress: true }, true],
    [{ isTTY: true, env: { CI: '' }, progress: true }, true],
    [{ isTTY: false, env: {}, progress: true }, false],
    [{ isTTY: true, env: {}, progress: false }, false],
    [{ isTTY: true, env: { TERM: 'dumb' }, progress: true }, false],
    [{ isTTY: true, env: { TERM: 'xterm-256color' }, progress: true }, true],
  ])('isInteractive(%j) -> %s', (input, expected) => expect(isInteractive(input)).toBe(expected))

  it('formats done/total, pages per second and failures', () => {
    expect(formatProgressLine({ done: 50, total: 100, failures: 1, elapsedMs: 2000 })).toBe(
      `[${'#'.repeat(12)}${'-'.repeat(12)}] 50/100 · 25.0 pages/s · 1 failure`,
    )
  })

  it('shows no rate before the first second of pages (not "0.0 pages/s" on the first draw)', () => {
    expect(formatProgressLine({ done: 1, total: 100, failures: 0, elapsedMs: 0 })).toBe(
      `[${'-'.repeat(24)}] 1/100 · 0 failures`,
    )
    expect(formatProgressLine({ done: 8, total: 100, failures: 2, elapsedMs: 999 })).toBe(
      `[${'#'.repeat(2)}${'-'.repeat(22)}] 8/100 · 2 failures`,
    )
    expect(formatProgressLine({ done: 9, total: 100, failures: 0, elapsedMs: 1000 })).toContain('· 9.0 pages/s ·')
  })

  it('redraws the bar at most every 100 ms on a terminal', () => {
    const { chunks, stream } = sink()
    let now = 0
    const reporter = createProgressReporter({ stream, interactive: true, now: () => now })
    for (let i = 1; i <= 100; i++) {
      now = i * 5 // 500 ms in total
      reporter.onProgress({ type: 'page', done: i, total: 100, failures: 0 })
    }
    reporter.stop()
    const draws = chunks.filter((c) => c.startsWith('\r\u001b[2K['))
    expect(draws.length).toBeGreaterThanOrEqual(5)
    expect(draws.length).toBeLessThanOrEqual(7)
    expect(chunks.at(-1)).toBe('\n')
  })

  it('prints a line per locale and nothing per page off a terminal', () => {
    const { chunks, stream } = sink()
    const reporter = createProgressReporter({ stream, interactive: false })
    reporter.onProgress({ type: 'locale', locale: 'pl', links: 12 })
    reporter.onProgress({ type: 'page', done: 1, total: 2, failures: 0 })
    reporter.stop()
    expect(chunks).toEqual(['pl: initial data in, 12 page links\n'])
  })
})
