/**
 * Slug history across a commit that was cut short (a `site build` or `site publish` killed while an incremental
 * build moved its files into OUT): the next build trusts no file of OUT and builds from scratch, but still knows
 * where the pages of the last complete build were and its slug redirects, so a page renamed in the cut build keeps
 * its 301. The cut is left as applyToOutput leaves it: the old state moved aside, some new files moved in.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserConfig } from '../../src/config/types.js'
import { BUILD_STORE_ASIDE_FILE, BUILD_STORE_FILE, REDIRECTS_FILE } from '../../src/shared/layout.js'
import { BASE_URL, buildSite, diffTrees, type EditableDemo, readTree, startEditableDemo } from './build-helpers.js'

let demo: EditableDemo

// earlier builds' content-hashed files are kept by a build over an output (keepBuilds) and by no build from
// scratch: with 1, an incremental build and a build from scratch of the same data write the same files
const user: UserConfig = { baseUrl: BASE_URL, build: { keepBuilds: 1 } }
const build = (outDir: string) => buildSite({ apiUrl: demo.api.url, outDir, tools: demo.tools, user })

/** Moves the English careers page from `from` to `to`, every link to it included, as TYPO3 does. */
async function moveCareers(from: string, to: string): Promise<void> {
  const { content } = demo
  for (const folder of ['pages/en', 'pages/pl', 'pages/de', 'initial-data', 'errors']) {
    for (const name of await readdir(join(content, folder))) {
      const file = join(content, folder, name)
      // the path, not a longer one that starts with it: followed by a quote (JSON, or escaped in HTML)
      const text = await readFile(file, 'utf8')
      const link = new RegExp(`${from}(?=\\\\?")`, 'g')
      if (link.test(text)) await writeFile(file, text.replace(link, to))
    }
  }
  await demo.api.reload()
}

beforeAll(async () => {
  demo = await startEditableDemo('site-slug-cut-')
}, 120_000)

afterAll(() => demo?.close())

describe('slug history after a cut commit', () => {
  it('keeps the 301 of a page renamed in a build whose commit was cut, in a build from scratch', async () => {
    const out = join(demo.dir, 'out')
    expect((await build(out)).failures).toEqual([])
    const cut = join(demo.dir, 'cut')
    execFileSync('cp', ['-a', out, cut])
    const before = await readTree(out)

    await moveCareers('/careers', '/careers-x')
    // the build that knew the history: over the complete output
    const renamed = await build(out)
    expect(renamed.failures).toEqual([])
    expect(renamed.changes.slugs).toEqual([
      { from: '/careers', to: '/careers-x', locale: 'en', uid: expect.any(Number) },
    ])
    const expected = await readTree(out)
    expect(expected.get(REDIRECTS_FILE)?.toString()).toMatch(/^\/careers \/careers-x 301/m)

    // the same build cut in its commit over the copy: the old state aside, half of the new files in
    await rename(join(cut, BUILD_STORE_FILE), join(cut, BUILD_STORE_ASIDE_FILE))
    const changed = diffTrees(before, expected).filter((path) => expected.has(path) && path !== BUILD_STORE_FILE)
    expect(changed.length).toBeGreaterThan(2)
    for (const path of changed.slice(0, changed.length >> 1)) {
      await mkdir(dirname(join(cut, path)), { recursive: true })
      await copyFile(join(out, path), join(cut, path))
    }

    const after = await build(cut)
    expect(after.failures).toEqual([])
    expect(after.notes).toEqual(
      expect.arrayContaining([expect.stringContaining(`the previous output has no ${BUILD_STORE_FILE}`)]),
    )
    expect(after.redirects).toContainEqual({ from: '/careers', to: '/careers-x', statusCode: 301 })
    expect(await readFile(join(cut, REDIRECTS_FILE), 'utf8')).toMatch(/^\/careers \/careers-x 301/m)
    expect(existsSync(join(cut, BUILD_STORE_ASIDE_FILE))).toBe(false)
    // byte for byte the output of the build that knew the history
    expect(diffTrees(expected, await readTree(cut))).toEqual([])

    // and later builds keep it
    const next = await build(cut)
    expect(next.failures).toEqual([])
    expect(await readFile(join(cut, REDIRECTS_FILE), 'utf8')).toMatch(/^\/careers \/careers-x 301/m)
  }, 180_000)

  it('moves the state aside during a commit and leaves no side copy once it is done', async () => {
    const out = join(demo.dir, 'out')
    await moveCareers('/careers-x', '/careers-y')
    const result = await build(out)
    expect(result.failures).toEqual([])
    expect(result.redirects).toEqual(
      expect.arrayContaining([
        { from: '/careers', to: '/careers-y', statusCode: 301 },
        { from: '/careers-x', to: '/careers-y', statusCode: 301 },
      ]),
    )
    expect(existsSync(join(out, BUILD_STORE_FILE))).toBe(true)
    expect(existsSync(join(out, BUILD_STORE_ASIDE_FILE))).toBe(false)
  }, 180_000)
})
