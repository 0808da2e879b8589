/**
 * `site publish` without a target: the output folder is what a web server serves while the publisher writes it.
 * A publish moves a new page in before the changed pages that link to it, so a served page never links to a
 * page that is not there yet (a renamed slug: the translations' language menus name the new path).
 */
import { watch } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoApi } from '../../src/demo/server.js'
import { replaceInContent } from './build-helpers.js'
import {
  type PublishProject,
  pageMessage,
  type RunningPublisher,
  settled,
  startPublisher,
  startPublishProject,
  typo3Headers,
  waitUntil,
} from './publish-helpers.js'

let api: DemoApi
let content: string
let out: string
let configFile: string
let publisher: RunningPublisher | undefined
let project: PublishProject | undefined

/** A slug and each link to it renamed, as TYPO3 answers after a rename. */
async function relink(from: string, to: string): Promise<void> {
  await replaceInContent(content, from, to)
  await api.reload()
}

beforeAll(async () => {
  project = await startPublishProject('site-publish-order-', { quietMs: 200, maxWaitMs: 2000 })
  ;({ content, api, out, configFile } = project)
})

afterAll(async () => {
  publisher?.child.kill('SIGKILL')
  await project?.close()
})

describe('site publish into the served output folder', () => {
  it('moves a renamed page in before the translation whose language menu links to it', async () => {
    publisher = await startPublisher(['--config', configFile, '--api', api.url, '--out', out])
    await waitUntil(settled(publisher), 'the first full build')
    const before = (await publisher.status()).publishCount.ok

    // Both folders are watched on one inotify queue: the order of their events is the order of the changes.
    const events: string[] = []
    const watchers = [
      watch(join(out, 'pl/aktualnosci'), (_, name) => events.push(`pl/aktualnosci/${name}`)),
      watch(join(out, 'news/new-office-in-berlin'), (_, name) => events.push(`news/new-office-in-berlin/${name}`)),
    ]
    try {
      // the Polish page (15) gets a new slug; the English one names it in its language menu
      await relink('/aktualnosci/nowe-biuro-w-berlinie', '/aktualnosci/nowe-biuro-gdansk-berlin')
      const body = pageMessage(15, { changedFields: ['slug'] })
      expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
      await waitUntil(async () => (await publisher!.status()).publishCount.ok > before, 'the publish')
      await waitUntil(settled(publisher), 'the publisher to be idle')
      await new Promise((done) => setTimeout(done, 200))
    } finally {
      for (const watcher of watchers) watcher.close()
    }

    const english = await readFile(join(out, 'news/new-office-in-berlin/index.html'), 'utf8')
    expect(english).toContain('href="/pl/aktualnosci/nowe-biuro-gdansk-berlin"')
    const added = events.indexOf('pl/aktualnosci/nowe-biuro-gdansk-berlin')
    const linking = events.indexOf('news/new-office-in-berlin/index.html')
    expect(added).toBeGreaterThanOrEqual(0)
    expect(linking).toBeGreaterThanOrEqual(0)
    expect(added, events.join('\n')).toBeLessThan(linking)
  })
})
