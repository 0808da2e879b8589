/**
 * Slug history: when a page's path changes between builds (same uid, same
 * locale), the old path becomes a 301 to the new one, as the API's redirects are written (a
 * `_redirects` entry, a redirect payload, and a redirect page with `build.redirectPages`), and stays in later builds until the
 * CMS serves a page at the old path again.
 */
import { existsSync } from 'node:fs'
import { cp, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUILD_STORE_FILE } from '../../src/shared/layout.js'
import {
  BASE_URL,
  buildSite,
  diffTrees,
  type EditableDemo,
  editFile,
  readTree,
  startEditableDemo,
} from './build-helpers.js'

let demo: EditableDemo
let out: string

const build = (options: { only?: string[]; outDir?: string } = {}) =>
  buildSite({ apiUrl: demo.api.url, outDir: options.outDir ?? out, tools: demo.tools, only: options.only })

/** Moves the Polish team page (uid 3) from `from` to `to` (paths without the /pl prefix), links included, as TYPO3 does. */
async function movePolishTeamPage(from: string, to: string): Promise<void> {
  const { content } = demo
  await editFile(join(content, 'pages/pl/o-nas--zespol.json'), `"slug": "${from}"`, `"slug": "${to}"`)
  for (const folder of ['pages/en', 'pages/pl', 'pages/de', 'initial-data']) {
    for (const name of await readdir(join(content, folder))) {
      const file = join(content, folder, name)
      // the path, not a longer one that starts with it: followed by a quote (JSON, or escaped in HTML)
      const text = await readFile(file, 'utf8')
      const link = new RegExp(`/pl${from}(?=\\\\?")`, 'g')
      if (link.test(text)) await writeFile(file, text.replace(link, `/pl${to}`))
    }
  }
  await demo.api.reload()
}

const redirectTo = async (path: string): Promise<string | undefined> => {
  const file = join(out, path.slice(1), '_payload.json')
  if (!existsSync(file)) return undefined
  const payload = JSON.parse(await readFile(file, 'utf8')) as { redirect?: { to: string; statusCode: number } }
  return payload.redirect ? `${payload.redirect.to} ${payload.redirect.statusCode}` : 'page'
}

beforeAll(async () => {
  demo = await startEditableDemo('site-slugs-')
  out = join(demo.dir, 'out')
  expect((await build()).failures).toEqual([])
}, 120_000)

afterAll(() => demo?.close())

describe('slug history', () => {
  it('turns the old path of a moved page into a 301 to the new one, like the API redirects, and reports it', async () => {
    await movePolishTeamPage('/o-nas/zespol', '/o-nas/nasz-zespol')
    const twin = join(demo.dir, 'twin')
    await cp(out, twin, { recursive: true })
    const result = await build({ only: ['3'] })
    expect(result.failures).toEqual([])
    expect(result.changes.slugs).toEqual([
      { from: '/pl/o-nas/zespol', to: '/pl/o-nas/nasz-zespol', locale: 'pl', uid: 3 },
    ])
    expect(result.changes.pages.removed).toEqual([])
    expect(result.changes.pages.added).toEqual([])
    expect(result.redirects).toContainEqual({ from: '/pl/o-nas/zespol', to: '/pl/o-nas/nasz-zespol', statusCode: 301 })
    expect(await redirectTo('/pl/o-nas/zespol')).toBe('/pl/o-nas/nasz-zespol 301')
    expect(await redirectTo('/pl/o-nas/nasz-zespol')).toBe('page')
    // like the API's redirects: a page at the old path only with build.redirectPages
    expect(existsSync(join(out, 'pl/o-nas/zespol/index.html'))).toBe(false)
    expect(await readFile(join(out, '_redirects'), 'utf8')).toMatch(
      /^\/pl\/o-nas\/zespol \/pl\/o-nas\/nasz-zespol 301/m,
    )
    const sitemap = await readFile(join(out, 'sitemap.xml'), 'utf8')
    expect(sitemap).toContain(`${BASE_URL}/pl/o-nas/nasz-zespol<`)
    expect(sitemap).not.toContain(`${BASE_URL}/pl/o-nas/zespol<`)
    // the same as a full build over the same previous output
    expect((await build({ outDir: twin })).failures).toEqual([])
    expect(diffTrees(await readTree(twin), await readTree(out))).toEqual([])
  })

  it('keeps it in later builds, and follows the page when it moves again', async () => {
    expect((await build()).redirects).toContainEqual(expect.objectContaining({ from: '/pl/o-nas/zespol' }))
    await movePolishTeamPage('/o-nas/nasz-zespol', '/o-nas/ludzie')
    const result = await build()
    expect(result.changes.slugs).toEqual([
      { from: '/pl/o-nas/nasz-zespol', to: '/pl/o-nas/ludzie', locale: 'pl', uid: 3 },
    ])
    expect(await redirectTo('/pl/o-nas/zespol')).toBe('/pl/o-nas/ludzie 301')
    expect(await redirectTo('/pl/o-nas/nasz-zespol')).toBe('/pl/o-nas/ludzie 301')
    const [first = ''] = (await readFile(join(out, BUILD_STORE_FILE), 'utf8')).split('\n')
    const store = JSON.parse(first) as { redirects: unknown[] }
    expect(store.redirects).toContainEqual(expect.objectContaining({ from: '/pl/o-nas/zespol', kind: 'slug', uid: 3 }))
  })

  it('drops it once the CMS serves a page at the old path again', async () => {
    const { content } = demo
    const team = JSON.parse(await readFile(join(content, 'pages/pl/o-nas--zespol.json'), 'utf8'))
    await writeFile(
      join(content, 'pages/pl/archiwum.json'),
      JSON.stringify({ ...team, id: 50, slug: '/o-nas/zespol', i18n: [], meta: { ...team.meta, title: 'Archiwum' } }),
    )
    await editFile(
      join(content, 'pages/pl/o-nas.json'),
      'na <a href=\\"/pl/o-nas/ludzie\\">',
      'w <a href=\\"/pl/o-nas/zespol\\">archiwum</a> i na <a href=\\"/pl/o-nas/ludzie\\">',
    )
    await demo.api.reload()
    const result = await build()
    expect(result.failures).toEqual([])
    expect(await redirectTo('/pl/o-nas/zespol')).toBe('page')
    expect(await redirectTo('/pl/o-nas/nasz-zespol')).toBe('/pl/o-nas/ludzie 301')
    expect(result.redirects.map((r) => r.from)).not.toContain('/pl/o-nas/zespol')
  })

  it('keeps it when a link in the previous output makes the build start from scratch, read through no link', async () => {
    await symlink('/etc', join(out, 'planted'))
    const fresh = await build()
    expect(fresh.failures).toEqual([])
    expect(fresh.notes).toContainEqual(
      expect.stringMatching(/^Built every file into a fresh output folder: .*"planted"/),
    )
    expect(await redirectTo('/pl/o-nas/nasz-zespol')).toBe('/pl/o-nas/ludzie 301')
    expect(await readFile(join(out, '_redirects'), 'utf8')).toMatch(
      /^\/pl\/o-nas\/nasz-zespol \/pl\/o-nas\/ludzie 301/m,
    )
    // a state on the other side of a link is not read: the history starts anew
    await rename(join(out, '_site'), join(demo.dir, 'site-elsewhere'))
    await symlink(join(demo.dir, 'site-elsewhere'), join(out, '_site'))
    expect((await build()).failures).toEqual([])
    expect(await redirectTo('/pl/o-nas/nasz-zespol')).toBeUndefined()
  })

  it('keeps the history of the locales still listed when i18n.locales drops one', async () => {
    const twoLocales = join(demo.dir, 'out-locales')
    const buildTo = (user?: object) => buildSite({ apiUrl: demo.api.url, outDir: twoLocales, tools: demo.tools, user })
    expect((await buildTo()).failures).toEqual([])
    await movePolishTeamPage('/o-nas/ludzie', '/o-nas/ekipa')
    expect((await buildTo()).failures).toEqual([])
    const result = await buildTo({ baseUrl: BASE_URL, i18n: { locales: ['en', 'pl'] } })
    expect(result.failures).toEqual([])
    expect(result.redirects).toContainEqual({ from: '/pl/o-nas/ludzie', to: '/pl/o-nas/ekipa', statusCode: 301 })
    expect(await readFile(join(twoLocales, '_redirects'), 'utf8')).toMatch(
      /^\/pl\/o-nas\/ludzie \/pl\/o-nas\/ekipa 301/m,
    )
  })

  it('notes a content link to an old path, which answers 301, instead of listing it as broken', async () => {
    await editFile(
      join(demo.content, 'pages/pl/o-nas.json'),
      'i na <a href=\\"/pl/o-nas/ekipa\\">',
      'i na <a href=\\"/pl/o-nas/ludzie\\">ludzi</a>, <a href=\\"/pl/o-nas/ekipa\\">',
    )
    await demo.api.reload()
    const outDir = join(demo.dir, 'out-locales')
    const user = { baseUrl: BASE_URL, i18n: { locales: ['en', 'pl'] } }
    const result = await buildSite({ apiUrl: demo.api.url, outDir, tools: demo.tools, user })
    expect(result.failures).toEqual([])
    expect(result.redirects).toContainEqual({ from: '/pl/o-nas/ludzie', to: '/pl/o-nas/ekipa', statusCode: 301 })
    expect(result.skipped.map((s) => s.item)).not.toContain('/pl/o-nas/ludzie')
    expect(result.notes).toContainEqual(
      expect.stringMatching(
        /^\/pl\/o-nas\/ludzie: .*old path.* 301 to \/pl\/o-nas\/ekipa.* \[from \/pl\/o-nas; page uid 2/,
      ),
    )
  })
})
