/**
 * `site publish` when an edit's event comes late: a publish for another page asks the API again for the edited
 * page (it links to the other page) and so already shows its new title; the late event must still rebuild the pages
 * that show that title (breadcrumbs, menus), or they keep the old one until the next reconcile.
 */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoApi } from '../../src/demo/server.js'
import { diffTrees, editFile, readTree } from './build-helpers.js'
import { runSite } from './cli-helpers.js'
import {
  type PublishProject,
  pageMessage,
  type RunningPublisher,
  settled,
  startPublisher,
  startPublishProject,
  TOKEN,
  typo3Headers,
  waitUntil,
} from './publish-helpers.js'

let api: DemoApi
let dir: string
let content: string
let configFile: string
let out: string
let publisher: RunningPublisher | undefined
let project: PublishProject | undefined

/** Renames page `path` of the English site as TYPO3 would: its title, and every menu entry and breadcrumb showing it. */
async function retitle(path: string, title: string): Promise<void> {
  const pages = join(content, 'pages/en')
  const files = [...(await readdir(pages)).map((name) => join(pages, name)), join(content, 'initial-data/en.json')]
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (value && typeof value === 'object') {
      const entry = value as Record<string, unknown>
      if (entry.link === path && typeof entry.title === 'string') entry.title = title
      for (const child of Object.values(entry)) walk(child)
    }
  }
  for (const file of files) {
    const page = JSON.parse(await readFile(file, 'utf8')) as { slug?: string; meta?: { title: string } }
    walk(page)
    if (page.slug === path && page.meta) page.meta.title = title
    await writeFile(file, JSON.stringify(page, null, 2))
  }
  await api.reload()
}

const breadcrumbsOf = async (path: string) =>
  /<nav aria-label="Breadcrumbs"[\s\S]*?<\/nav>/.exec(await readFile(join(out, path, 'index.html'), 'utf8'))?.[0]

/** Whether the output equals a full build's over a copy of it and the API as it is now. */
async function expectSameAsFullBuild(): Promise<void> {
  const twin = join(dir, 'twin')
  await rm(twin, { recursive: true, force: true })
  await cp(out, twin, { recursive: true })
  const full = await runSite(['build', '--config', configFile, '--api', api.url, '--out', twin])
  expect(full.code).toBe(0)
  expect(diffTrees(await readTree(out), await readTree(twin))).toEqual([])
}

/** Sends TYPO3's Page Modification for a title change of page `uid`, and waits until it is published. */
async function publishTitleOf(uid: number, pid: number): Promise<void> {
  const before = (await publisher!.status()).publishCount.ok
  const body = pageMessage(uid, { record: { uid, pid, l10n_parent: 0, sys_language_uid: 0, title: 'x' } })
  expect((await publisher!.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
  await waitUntil(async () => (await publisher!.status()).publishCount.ok > before, 'the publish')
  await waitUntil(settled(publisher!), 'the publisher to be idle')
}

beforeAll(async () => {
  project = await startPublishProject('site-publish-linkers-', { quietMs: 1000, maxWaitMs: 5000 })
  ;({ dir, content, api, out, configFile } = project)
})

afterAll(async () => {
  publisher?.child.kill('SIGKILL')
  await project?.close()
})

describe('site publish, an event that arrives after a publish already asked for its page', () => {
  it('rebuilds the pages showing the page title it names, as a full build shows them', async () => {
    publisher = await startPublisher(['--config', configFile, '--api', api.url, '--out', out])
    await waitUntil(settled(publisher), 'the first full build')

    // Two editors save: /services/custom-software (5) and its parent /services (4), whose page links to it. Only
    // the first event has come when its publish runs: that publish asks again for /services (it links to 5).
    await retitle('/services/custom-software', 'Bespoke software')
    await retitle('/services', 'What we do')
    await publishTitleOf(5, 4)
    // The second event comes now: /services' answer is what the last publish saw, its title is new all the same.
    await publishTitleOf(4, 1)

    expect(await breadcrumbsOf('services/data-analytics')).toContain('<a href="/services">What we do</a>')
    await expectSameAsFullBuild()
  })

  it('asks again for a page it asked ahead, when a later event changes a page it links to', async () => {
    // a content edit of /about-us/team (3): its answer is asked ahead while the publisher waits for quiet
    await editFile(join(content, 'pages/en/about-us--team.json'), 'The leadership team', 'The founders')
    await api.reload()
    const from = api.requests.length
    const auth = { authorization: `Bearer ${TOKEN}` }
    expect((await publisher!.post('/hooks/pages', '{"pages":[3]}', auth)).status).toBe(202)
    await waitUntil(async () => api.requests.slice(from).some((r) => r.path === '/about-us/team'), 'the ask ahead')
    // its parent /about-us (2) is renamed before that publish: the team page's breadcrumbs show the new title
    await retitle('/about-us', 'Who we are')
    await publishTitleOf(2, 1)

    expect(await breadcrumbsOf('about-us/team')).toContain('<a href="/about-us">Who we are</a>')
    await expectSameAsFullBuild()
  })
})
