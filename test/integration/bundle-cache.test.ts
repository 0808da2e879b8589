/**
 * The bundles a build takes from `.site/bundles/` are the bundles esbuild would make: the same files and
 * assets, a template edit taken at once, and a bundled templates module on disk imported only as it was written.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleClient, type ClientBundle } from '../../src/hydration/bundle.js'
import { loadTemplates } from '../../src/hydration/node-registry.js'
import { REPO_ROOT } from './build-helpers.js'

let project: string

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'site-bundle-cache-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
})

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

/** A bundle as comparable data: its assets and hints, and each file's path and bytes. */
const plain = (bundle: ClientBundle) => ({
  assets: bundle.assets,
  editorAssets: bundle.editorAssets,
  hints: bundle.hints,
  files: bundle.files.map((file) => [file.path, Buffer.from(file.contents).toString('base64')]),
})

const textTemplate = () => join(project, 'templates/content/Text.tsx')

describe('bundles from the cache', () => {
  it('equal what esbuild makes, before and after a template is edited', async () => {
    const fresh = plain(await bundleClient({ root: project, cache: false }))
    await bundleClient({ root: project })
    expect(plain(await bundleClient({ root: project }))).toEqual(fresh)

    const source = await readFile(textTemplate(), 'utf8')
    // a class name the minifier keeps, so the edit shows in the bytes
    await writeFile(textTemplate(), source.replace('className=', 'data-edited="yes" className='))
    const edited = plain(await bundleClient({ root: project }))
    expect(edited).not.toEqual(fresh)
    expect(edited).toEqual(plain(await bundleClient({ root: project, cache: false })))
    expect(edited.files.some(([, bytes]) => Buffer.from(bytes!, 'base64').includes('data-edited'))).toBe(true)
    await writeFile(textTemplate(), source)
  }, 60_000)

  it('load the templates for Node, and a bundled module changed on disk is written again before it is imported', async () => {
    await loadTemplates(project)
    const dir = join(project, '.site/templates')
    const [file] = (await readdir(dir)).filter((name) => name.endsWith('.mjs'))
    const written = await readFile(join(dir, file!), 'utf8')
    await writeFile(join(dir, file!), 'export default { layouts: {}, content: {} }\n')

    const registry = await loadTemplates(project)
    expect(await readFile(join(dir, file!), 'utf8')).toBe(written)
    expect(Object.keys(registry.content)).toContain('Text')
    expect(typeof registry.Header).toBe('function')
  }, 60_000)
})
