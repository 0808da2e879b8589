/**
 * Configuration traps. A site configured for German only, against the three-language
 * demo API, filed every page under German without a word; the build now says what happened.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatSummary } from '../../src/cli/report.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { BASE_URL, type BuildTools, buildSite, loadBuildTools } from './build-helpers.js'

let api: DemoApi
let tools: BuildTools
let dir: string

beforeAll(async () => {
  ;[api, tools] = await Promise.all([startDemoApi({ port: 0 }), loadBuildTools()])
  dir = await mkdtemp(join(tmpdir(), 'site-config-traps-'))
}, 60_000)
afterAll(async () => {
  await api?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('a site configured for fewer languages than the API serves', () => {
  it('is built, with notes that name the languages it lacks and the locale answered in another language', async () => {
    const result = await buildSite({
      apiUrl: api.url,
      outDir: join(dir, 'de-only'),
      tools,
      user: { baseUrl: BASE_URL, i18n: { default: 'de', locales: ['de'] } },
    })
    expect(result.failures).toEqual([])
    expect(Object.keys(result.pages.byLocale)).toEqual(['de'])
    const summary = formatSummary(result)
    expect(summary).toContain(`Note: the API answers the de locale's initial data in "en"`)
    expect(summary).toContain(
      'Note: the API offers languages that i18n.locales (de) does not list: "en" at "/", "pl" at "/pl/"; pages linked in them are built as de pages. List them in i18n.locales to build each in its own language (docs/configuration.md)',
    )
  })

  it('says nothing when the site lists every language of the API', async () => {
    const result = await buildSite({ apiUrl: api.url, outDir: join(dir, 'all'), tools })
    expect(result.failures).toEqual([])
    expect(result.notes.filter((note) => /i18n\.locales|initial data in/.test(note))).toEqual([])
  })
})
