/** CI-native diagnostics: annotations and the step summary under GitHub Actions, CMS text escaped. */
import { describe, expect, it } from 'vitest'
import type { BuildResult } from '../../../src/build/types.js'
import { formatDiagnostics } from '../../../src/cli/diagnostics.js'
import { formatAnnotations, formatStepSummary, STEP_SUMMARY_MAX_ROWS } from '../../../src/cli/github.js'

const result = (over: Partial<BuildResult> = {}): BuildResult => ({
  buildId: 'b1',
  outDir: '/out',
  pages: { total: 3, byLocale: { en: 2, pl: 1 }, paths: ['/', '/a', '/pl'] },
  redirects: [],
  missingTemplates: [],
  failures: [
    {
      kind: 'BROKEN_NAV_LINK',
      path: '/careers',
      status: 404,
      reason: 'the API answers 404 (linked from initial data (en))',
      from: 'initial data (en)',
    },
    { kind: 'RENDER_FAILED', path: '/x', status: 500, reason: 'Rendering /x failed: 50%,\n::error::pwned', pageUid: 7 },
  ],
  skipped: [
    {
      kind: 'BROKEN_CONTENT_LINK',
      item: '/gone',
      status: 404,
      reason: 'the API answers 404',
      from: '/a',
      pageUid: 12,
      elementUid: 34,
    },
    { kind: 'UNSAFE_LINK', item: '/../x', reason: 'dot segment', from: '/' },
  ],
  notes: ['baseUrl is not set'],
  bytesWritten: 1,
  filesWritten: 1,
  durationMs: 1500,
  timings: { apiWaitMs: 0, renderMs: 0, writeMs: 0 },
  filesKept: 0,
  changes: { pages: { added: [], changed: [], removed: [], unchanged: 0 }, slugs: [] },
  manifest: { id: 'b1', clientVersion: 'c1', prerendered: [] },
  recheck: { complete: true, pages: [] },
  ...over,
})

describe('formatDiagnostics', () => {
  it('writes one line per failure, skipped item and note from their fields', () => {
    expect(formatDiagnostics(result())).toEqual([
      'error BROKEN_NAV_LINK /careers 404: the API answers 404 (linked from initial data (en)) [from initial data (en)]',
      'error RENDER_FAILED /x 500: Rendering /x failed: 50%,\n::error::pwned [page uid 7]',
      'warning BROKEN_CONTENT_LINK /gone 404: the API answers 404 [from /a; page uid 12; content element uid 34]',
      'warning UNSAFE_LINK /../x: dot segment [from /]',
      'note: baseUrl is not set',
    ])
  })

  it('names the page once where a data problem says where it is, and keeps an item its reason only begins like', () => {
    const skipped = [
      {
        kind: 'ELEMENT_SKIPPED',
        item: '/contact',
        reason: '/contact: content element 9 (text) skipped',
        elementUid: 9,
      },
      { kind: 'UNSAFE_MARKUP', item: '/', reason: '/ content[0].bodytext: <script> removed' },
      { kind: 'INVALID_DATA', item: '/a', reason: '/about: not the same page' },
    ] as const
    expect(formatDiagnostics(result({ failures: [], notes: [], skipped: [...skipped] }))).toEqual([
      'warning ELEMENT_SKIPPED /contact: content element 9 (text) skipped [content element uid 9]',
      'warning UNSAFE_MARKUP / content[0].bodytext: <script> removed',
      'warning INVALID_DATA /a: /about: not the same page',
    ])
  })
})

describe('formatAnnotations', () => {
  it('gives an ::error per failure and a ::warning per broken link in content, escaped', () => {
    expect(formatAnnotations(result())).toEqual([
      '::error title=site build%3A BROKEN_NAV_LINK::/careers 404: the API answers 404 (linked from initial data (en)) [from initial data (en)]',
      '::error title=site build%3A RENDER_FAILED::/x 500: Rendering /x failed: 50%25,\\n::error::pwned [page uid 7]',
      '::warning title=site build%3A BROKEN_CONTENT_LINK::/gone 404: the API answers 404 [from /a; page uid 12; content element uid 34]',
    ])
  })
})

describe('formatStepSummary', () => {
  it('gives pages per locale, failures and broken links with the uids an editor needs', () => {
    const md = formatStepSummary(result())
    expect(md).toContain('## site build: failed, 2 failure(s)')
    expect(md).toContain('| en | 2 |\n| pl | 1 |')
    expect(md).toContain('| BROKEN\\_NAV\\_LINK | /careers | 404 |')
    expect(md).toContain('| /gone | 404 | /a | 12 | 34 |')
    // CMS text cannot open a table cell, a line, a tag or a link
    expect(md).toContain('| RENDER\\_FAILED | /x | 500 | Rendering /x failed: 50%,\\\\n::error::pwned |  | 7 |  |')
    expect(md.split('\n').filter((line) => line.startsWith('::'))).toEqual([])
  })

  it('escapes Markdown and HTML, and caps each table', () => {
    const many = Array.from({ length: STEP_SUMMARY_MAX_ROWS + 5 }, (_, i) => ({
      kind: 'API_HTTP' as const,
      path: `/p${i}|<img src=x onerror=alert(1)>[a](javascript:x)`,
      status: 500,
      reason: '`code` *bold*',
    }))
    const md = formatStepSummary(result({ failures: many }))
    expect(md).toContain(
      '| API\\_HTTP | /p0\\|\\<img src=x onerror=alert(1)\\>\\[a\\](javascript:x) | 500 | \\`code\\` \\*bold\\* |',
    )
    expect(md).not.toMatch(/(^|[^\\])<img/m)
    expect(md).toContain(`… and 5 more`)
    expect(md.split('\n').filter((line) => line.startsWith('| API'))).toHaveLength(STEP_SUMMARY_MAX_ROWS)
  })

  it('says done and where the output is when nothing failed', () => {
    expect(formatStepSummary(result({ failures: [] }))).toMatch(
      /^## site build: done\n\n3 page\(s\) in 1\.5 s; 2 skipped item\(s\); output in \/out\.\n/,
    )
  })
})
