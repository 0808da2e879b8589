import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadDemoContent } from '../../../src/demo/content.js'
import { indexDemoFiles } from '../../../src/demo/files.js'
import { defaultDemoContentDir } from '../../../src/demo/server.js'

const dirs: string[] = []
afterEach(async () => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))))

async function contentDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'demo-content-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  return dir
}

const SITE = JSON.stringify({
  languages: [{ languageId: 0, twoLetterIsoCode: 'en', navigationTitle: 'English', base: '/' }],
})
const MINIMAL = {
  'site.json': SITE,
  'initial-data/en.json': '{"navigation":[],"i18n":[]}',
  'errors/404.en.json': '{"id":9}',
}

describe('loadDemoContent', () => {
  it('loads the bundled content: pages by slug, redirects, 404 pages', async () => {
    const { source } = await loadDemoContent(defaultDemoContentDir())
    expect(source.languages.map((l) => l.twoLetterIsoCode)).toEqual(['en', 'pl', 'de'])
    expect(JSON.parse(source.page('/pl/o-nas') ?? '{}').slug).toBe('/o-nas')
    expect(source.page('/de/policy')).toBeDefined()
    expect(source.redirect('/old-services')).toEqual({ redirectUrl: '/services', statusCode: 301 })
  })

  it('works without redirects.json and routes a page by its slug, not its file name', async () => {
    const { source } = await loadDemoContent(
      await contentDir({ ...MINIMAL, 'pages/en/whatever.json': '{"id":1,"slug":"/hello"}' }),
    )
    expect(source.page('/hello')).toBe('{"id":1,"slug":"/hello"}')
    expect(source.redirect('/x')).toBeUndefined()
  })

  it.each([
    ['pages/en/broken.json', '{"id":1,', 'is not valid JSON'],
    ['pages/en/no-slug.json', '{"id":1}', 'numeric `id` and a string `slug`'],
    ['site.json', '{}', 'needs `languages`'],
  ])('names the file when %s is wrong', async (file, text, message) => {
    const dir = await contentDir({ ...MINIMAL, [file]: text })
    await expect(loadDemoContent(dir)).rejects.toThrow(message)
  })

  it('refuses two pages with the same path', async () => {
    const page = '{"id":1,"slug":"/same"}'
    const dir = await contentDir({ ...MINIMAL, 'pages/en/a.json': page, 'pages/en/b.json': page })
    await expect(loadDemoContent(dir)).rejects.toThrow('repeats the path /same')
  })
})

describe('indexDemoFiles', () => {
  it('lists regular files under fileadmin only', async () => {
    const dir = await contentDir({ 'fileadmin/a/b.svg': '<svg/>', 'fileadmin/c.pdf': '%PDF', 'site.json': '{}' })
    const index = await indexDemoFiles(dir)
    expect([...index.keys()].sort()).toEqual(['/fileadmin/a/b.svg', '/fileadmin/c.pdf'])
    expect(index.get('/fileadmin/c.pdf')?.contentType).toBe('application/pdf')
  })
})
