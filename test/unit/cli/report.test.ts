import { describe, expect, it } from 'vitest'
import type { BuildResult } from '../../../src/build/types.js'
import { formatBytes, formatSummary, toBuildSummary } from '../../../src/cli/report.js'

const result = (over: Partial<BuildResult> = {}): BuildResult => ({
  buildId: 'b1',
  outDir: '/out',
  pages: { total: 3, byLocale: { en: 1, pl: 1, de: 1 }, paths: ['/', '/de', '/pl'] },
  redirects: [{ from: '/old', to: '/new', statusCode: 301 }],
  failures: [],
  skipped: [{ kind: 'UNSAFE_LINK', item: '/../x', reason: 'dot segment', from: '/' }],
  notes: [],
  missingTemplates: [],
  bytesWritten: 2048,
  filesKept: 0,
  filesWritten: 9,
  changes: { pages: { added: [], changed: [], removed: [], unchanged: 3 }, slugs: [] },
  durationMs: 1500,
  timings: { apiWaitMs: 100.4, renderMs: 10.6, writeMs: 5 },
  manifest: { id: 'b1', clientVersion: 'c1', prerendered: ['/', '/de', '/pl', '/old'] },
  recheck: { complete: true, pages: [] },
  ...over,
})

describe('build summary', () => {
  it('gives pages per locale, redirects, skipped items, bytes and wall time', () => {
    const text = formatSummary(result())
    expect(text).toContain('Pages: 3 (en 1, pl 1, de 1) in 1.50 s, 2 pages/s')
    expect(text).toContain('/old -> /new (301)')
    expect(text).toContain('/../x  UNSAFE_LINK  dot segment (in /)')
    expect(text).toContain('Written: 9 files, 2.0 KB')
    expect(text).toContain('Output: /out')
  })

  it('lists no pages on a first build, where every page is new', () => {
    const added = ['/', '/de', '/pl']
    const text = formatSummary(
      result({ changes: { pages: { added, changed: [], removed: [], unchanged: 0 }, slugs: [] } }),
    )
    expect(text).toContain('Changes: every page is new (3); no previous output to compare with')
    expect(text).not.toContain('  + /')
  })

  it('says what changed since the previous output, and what --only did', () => {
    const text = formatSummary(
      result({
        filesKept: 120,
        changes: {
          pages: { added: ['/new'], changed: ['/pl', '/de'], removed: ['/gone'], unchanged: 1 },
          slugs: [{ from: '/pl/a', to: '/pl/b', locale: 'pl', uid: 4 }],
        },
        only: {
          requested: ['2'],
          unknownUids: [],
          unknownFiles: [],
          unknownPaths: [],
          refetched: ['/pl', '/de'],
          rerenderedLocales: ['de'],
        },
      }),
    )
    expect(text).toContain('Changes: 1 added, 2 changed, 1 removed, 1 unchanged')
    expect(text).toContain('  + /new\n  ~ /pl\n  ~ /de\n  - /gone')
    expect(text).toContain('Slug changes (old path now redirects, 301) (1):\n  /pl/a -> /pl/b')
    expect(text).toContain(
      'Only: 2 page(s) asked of the API again for 2; every page of de rendered again from kept data',
    )
    expect(text).toContain('Written: 9 files, 2.0 KB; kept 120 files as they were')
    const fallback = formatSummary(
      result({
        only: {
          requested: ['2'],
          unknownUids: [],
          unknownFiles: [],
          unknownPaths: [],
          refetched: [],
          rerenderedLocales: [],
          fallback: 'x',
        },
      }),
    )
    expect(fallback).toContain('Only: every page was built, as x')
    expect(toBuildSummary(result({ filesKept: 7 }))).toMatchObject({
      filesKept: 7,
      changes: { pages: { unchanged: 3 } },
    })
  })

  it('lists every failure with status and reason, and says OUT was kept', () => {
    const text = formatSummary(
      result({ failures: [{ kind: 'API_HTTP', path: '/pl/x', status: 500, reason: 'HTTP 500' }] }),
    )
    expect(text).toContain('/pl/x  500  API_HTTP  HTTP 500')
    expect(text).toContain('Build failed: 1 path(s) failed; /out was left as it was.')
    // Its files went with the temporary folder (the report once said 'Written: 170 files').
    expect(text).not.toContain('Written')
  })

  it('counts the paths that failed, not their failures: a page showing two bad images is one path', () => {
    const bad = (url: string) => ({
      kind: 'MEDIA_ENCODE_FAILED' as const,
      path: '/photos/1',
      status: 502,
      reason: `the image cannot be encoded (GET ${url})`,
    })
    const text = formatSummary(
      result({
        failures: [
          bad('https://cms/a.jpg'),
          bad('https://cms/b.jpg'),
          { kind: 'API_HTTP', path: '/pl/x', status: 500, reason: 'HTTP 500' },
        ],
      }),
    )
    expect(text).toContain('Build failed: 2 path(s) failed; /out was left as it was.')
  })

  it('has a JSON form for pipelines', () => {
    const summary = toBuildSummary(result())
    expect(summary).toMatchObject({
      ok: true,
      pages: { total: 3 },
      pagesPerSecond: 2,
      timings: { apiWaitMs: 100, renderMs: 11, writeMs: 5 },
    })
    expect(summary).not.toHaveProperty('manifest')
  })

  it.each([
    [512, '512 B'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5.0 MB'],
  ])('formatBytes(%d) = %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text))
})
