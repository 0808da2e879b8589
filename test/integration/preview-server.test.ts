import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config/load.js'
import { startDemoApi } from '../../src/demo/server.js'
import { type PreviewServer, startPreviewServer } from '../../src/preview/server.js'
import { clientModulesOf } from '../shared/client-modules.js'
import { REPO_ROOT } from './preview-helpers.js'

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36' }

/** Reads a server-sent event stream and resolves on the first event named `name`. */
async function nextEvent(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  name: string,
  timeoutMs = 15_000,
): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  const timer = setTimeout(() => void reader.cancel(), timeoutMs)
  try {
    while (!text.includes(`event: ${name}\n`)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`stream ended before a ${name} event (got ${JSON.stringify(text)})`)
      text += decoder.decode(value)
    }
    return text
  } finally {
    clearTimeout(timer)
  }
}

/** The data of the `problem` event in an event stream's text. */
function problemOf(text: string): Record<string, unknown> {
  const data = text
    .slice(text.indexOf('event: problem\n'))
    .split('\n')
    .find((line) => line.startsWith('data: '))!
  return JSON.parse(data.slice('data: '.length)) as Record<string, unknown>
}

/**
 * A copy of the demo project (`change` may alter it first), the demo API and a watching preview server over it on
 * a free port; its terminal lines go to `lines`.
 */
async function startProjectPreview(lines: string[], change?: (root: string) => Promise<void>) {
  const root = await mkdtemp(join(tmpdir(), 'site-preview-server-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true })
  await change?.(root)
  const api = await startDemoApi({ port: 0 })
  const inline = { root, apiBaseUrl: api.url }
  const config = await resolveConfig(inline)
  const server = await startPreviewServer({
    config,
    root,
    inline,
    host: '127.0.0.1',
    port: 0,
    watch: true,
    log: (line) => lines.push(line),
  }).catch(async (error: unknown) => {
    await api.close()
    throw error
  })
  return {
    root,
    api,
    server,
    async close() {
      await server.close()
      await api.close()
      await rm(root, { recursive: true, force: true })
    },
  }
}

describe('preview server over a real socket, with watch and reload', () => {
  let root: string
  let api: Awaited<ReturnType<typeof startDemoApi>>
  let server: PreviewServer
  let close: (() => Promise<void>) | undefined
  const lines: string[] = []
  const page = (path: string) => fetch(`${server.url}${path}`, { headers: BROWSER })
  /**
   * Writes `text` to `file` and waits for the reload that names it, with open tabs told to reload by then. A reload
   * still on its way for an earlier change also sends `reload`: waiting for the event alone can return before this
   * change is read.
   */
  async function saveAndReload(file: string, text: string): Promise<void> {
    const events = await fetch(`${server.url}/_site/events`)
    const reader = events.body!.getReader()
    const before = lines.length
    await writeFile(file, text)
    const name = relative(root, file)
    const reloaded = (line: string) => line.startsWith('preview: reloaded after changes to ') && line.includes(name)
    await expect.poll(() => lines.slice(before).some(reloaded), { timeout: 15_000 }).toBe(true)
    await nextEvent(reader, 'reload')
    await reader.cancel()
  }

  beforeAll(async () => {
    ;({ root, api, server, close } = await startProjectPreview(lines))
  }, 60_000)
  afterAll(() => close?.())

  it('serves pages, the client bundle and public files', async () => {
    const res = await page('/pl/o-nas')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toMatch(/<html[^>]* lang="pl"/)
    const script = clientModulesOf(html).scripts[0]
    expect(script).toMatch(/^\/_site\/assets\//)
    const js = await fetch(`${server.url}${script}`)
    expect(js.status).toBe(200)
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    await js.arrayBuffer()
    const sw = await fetch(`${server.url}/sw.js`)
    expect(sw.status).toBe(200)
    expect(await sw.text()).toContain('Service worker')
    const redirect = await fetch(`${server.url}/old-services`, { redirect: 'manual', headers: BROWSER })
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/services')
  })

  it('refuses what a browser would not send, over the socket too', async () => {
    expect((await fetch(`${server.url}/about-us`, { method: 'POST', body: 'x' })).status).toBe(405)
    // a path that does not decode is a route that does not validate: 404
    expect((await fetch(`${server.url}/%E0%A4%A`)).status).toBe(404)
  })

  it('reloads templates on change: open tabs get `reload`, the next answer shows the change', async () => {
    const file = join(root, 'templates', 'texts', 'en.ts')
    const source = await readFile(file, 'utf8')
    expect(source).toContain("'There you can find us'")
    await saveAndReload(file, source.replace("'There you can find us'", "'Watched and reloaded'"))
    const html = await (await page('/')).text()
    expect(html).toContain('Watched and reloaded')
  }, 30_000)

  it("notes a content element that uses a hook without 'use client', after the reload", async () => {
    const source = `import { useState } from 'react'\nexport default function Toggle() { const [on] = useState(false); return <p>{String(on)}</p> }\n`
    await saveAndReload(join(root, 'templates', 'content', 'Toggle.tsx'), source)
    expect(lines).toContain(
      "preview: note: templates/content/Toggle.tsx uses useState but is not marked 'use client': on a first visit the browser keeps its server markup (add 'use client' as its first line)",
    )
  }, 30_000)

  it('notes a locale left without its texts file, and is quiet again once it is back', async () => {
    const file = join(root, 'templates', 'texts', 'pl.ts')
    const source = await readFile(file, 'utf8')
    const note = 'preview: note: templates/texts/ has no pl.ts: the pl pages show the texts of en.ts'
    const before = lines.length
    await rm(file)
    await expect.poll(() => lines.slice(before).includes(note), { timeout: 15_000 }).toBe(true)
    const after = lines.length
    await saveAndReload(file, source)
    expect(lines.slice(after)).not.toContain(note)
  }, 30_000)

  it('serves a file added to public/ after the reload', async () => {
    await saveAndReload(join(root, 'public', 'added.txt'), 'added while running')
    expect(await (await fetch(`${server.url}/added.txt`)).text()).toBe('added while running')
  }, 30_000)

  it('keeps serving the previous version when the config breaks, and picks up the fixed config', async () => {
    const file = join(root, 'config', 'site.config.ts')
    const good = await readFile(file, 'utf8')
    const before = lines.length
    await writeFile(file, `${good}\nexport const broken = {{`)
    await expect
      .poll(() => lines.slice(before).join('\n'), { timeout: 15_000 })
      .toMatch(/reload failed.*site\.config\.ts/)
    expect((await page('/about-us')).status).toBe(200)

    await saveAndReload(file, good.replace('tracking: {}', "tracking: { gtmId: 'GTM-WATCH01' }"))
    expect(await (await page('/about-us')).text()).toContain('GTM-WATCH01')
  }, 30_000)

  it('shows a config syntax error in open tabs with its file, line, column and code, and clears it on the fix', async () => {
    const file = join(root, 'config', 'site.config.ts')
    const good = await readFile(file, 'utf8')
    const events = await fetch(`${server.url}/_site/events`)
    const reader = events.body!.getReader()
    await writeFile(file, good.replace("queryParam: 'pce',", "queryParam: 'pce',,"))
    const problem = problemOf(await nextEvent(reader, 'problem'))
    const line = good.split('\n').findIndex((l) => l.includes("queryParam: 'pce',")) + 1
    expect(problem).toMatchObject({ title: 'Configuration is invalid', file: 'config/site.config.ts', line })
    expect(problem.column).toEqual(expect.any(Number))
    expect(problem.frame).toContain(`> ${line} |     queryParam: 'pce',,`)
    expect(String(problem.message)).not.toContain(root)
    await reader.cancel()
    await saveAndReload(file, good)
  }, 30_000)

  it('keeps serving when a template breaks', async () => {
    const file = join(root, 'templates', 'Footer.tsx')
    const good = await readFile(file, 'utf8')
    const before = lines.length
    await writeFile(file, `${good}\nexport const oops = <div>`)
    await expect.poll(() => lines.slice(before).join('\n'), { timeout: 15_000 }).toMatch(/reload failed/)
    expect(lines.slice(before).filter((line) => line.includes('reload failed'))).toHaveLength(1)
    expect((await page('/')).status).toBe(200)
    await saveAndReload(file, good)
  }, 30_000)

  it('answers a page whose header throws with an HTML page that reloads on the fix (bots: plain text)', async () => {
    const file = join(root, 'templates', 'Header.tsx')
    const good = await readFile(file, 'utf8')
    const signature = 'export default function Header({ navigation, transparent, languages }: HeaderProps) {'
    expect(good).toContain(signature)
    await saveAndReload(
      file,
      good.replace(signature, `${signature}\n  if (navigation) throw new Error('header <boom>')`),
    )

    const res = await page('/pl')
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    expect(html).toContain('Rendering /pl failed: header &lt;boom&gt;')
    // English, whatever the page's locale (a screen reader reads it in the page's language), in a main landmark
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<main>\s*<h1>500 Internal Server Error<\/h1>/)
    expect(html).toContain('/_site/events')
    const bot = await fetch(`${server.url}/pl`, { headers: { 'user-agent': 'Googlebot/2.1' } })
    expect(bot.status).toBe(500)
    expect(bot.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await bot.text()).toBe('500 Internal Server Error\n')

    await saveAndReload(file, good)
    expect((await page('/pl')).status).toBe(200)
  }, 30_000)

  it('shows a template that throws as it loads with its file, line and code, and clears it on the fix', async () => {
    const file = join(root, 'templates', 'content', 'Text.tsx')
    const good = await readFile(file, 'utf8')
    const line = good.trimEnd().split('\n').length + 1
    const events = await fetch(`${server.url}/_site/events`)
    const reader = events.body!.getReader()
    await writeFile(file, `${good.trimEnd()}\nthrow new Error('boom at import')\n`)
    const problem = problemOf(await nextEvent(reader, 'problem'))
    expect(problem).toMatchObject({ title: 'Templates failed to load', file: 'templates/content/Text.tsx', line })
    expect(problem.message).toContain('boom at import (at templates/content/Text.tsx:')
    expect(problem.frame).toContain(`> ${line} | throw new Error('boom at import')`)
    await reader.cancel()
    await saveAndReload(file, good)
  }, 30_000)

  it('tells a tab whose page came before a reload the version it missed', async () => {
    const versionOf = async (path: string) => /_site\/events\?v=(\d+)/.exec(await (await page(path)).text())?.[1]
    const before = await versionOf('/pl')
    const file = join(root, 'templates', 'content', 'Text.tsx')
    const good = await readFile(file, 'utf8')
    await saveAndReload(file, `${good}\n// changed\n`)
    const after = await versionOf('/pl')
    expect(after).not.toBe(before)
    // the stream of the earlier page connects only now: it is told the version pages are at
    const events = await fetch(`${server.url}/_site/events?v=${before}`)
    const reader = events.body!.getReader()
    expect(await nextEvent(reader, 'version')).toContain(`event: version\ndata: ${after}\n`)
    await reader.cancel()
    await saveAndReload(file, good)
  }, 30_000)

  it('does not report the API as not answering when a tab leaves before it answers', async () => {
    api.setLatency(600)
    try {
      const before = lines.length
      const leaving = new AbortController()
      const request = fetch(`${server.url}/pl/o-nas`, { headers: BROWSER, signal: leaving.signal })
      setTimeout(() => leaving.abort(), 150)
      await expect(request).rejects.toThrow()
      // past the API's answer time: the abandoned calls have ended in preview
      await new Promise((done) => setTimeout(done, 1000))
      const res = await page('/pl/o-nas')
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      expect(lines.slice(before).filter((line) => line.includes('content API'))).toEqual([])
    } finally {
      api.setLatency(0)
    }
  }, 30_000)

  it('names a missing template relative to the project in open tabs', async () => {
    const file = join(root, 'templates', 'ErrorPage.tsx')
    const good = await readFile(file, 'utf8')
    const events = await fetch(`${server.url}/_site/events`)
    const reader = events.body!.getReader()
    await rm(file)
    const problem = problemOf(await nextEvent(reader, 'problem'))
    expect(problem.message).toContain('missing templates/ErrorPage.tsx')
    expect(problem.message).not.toContain(root)
    await reader.cancel()
    await saveAndReload(file, good)
  }, 30_000)
})

describe('preview started over a template that does not compile', () => {
  let root: string
  let server: PreviewServer
  let close: (() => Promise<void>) | undefined
  const lines: string[] = []
  const file = () => join(root, 'templates', 'content', 'Text.tsx')

  beforeAll(async () => {
    ;({ root, server, close } = await startProjectPreview(lines, async (copy) => {
      root = copy
      await writeFile(file(), `${await readFile(file(), 'utf8')}\nexport const broken = (\n`)
    }))
  }, 60_000)
  afterAll(() => close?.())

  it('starts, shows every page the problem with its file and line, and serves the site once it is fixed', async () => {
    expect(lines[0]).toMatch(
      /^preview: the templates do not load; every page shows why until a change fixes them: Templates? failed to compile: templates\/content\/Text\.tsx:\d+:\d+: /,
    )
    const broken = await fetch(`${server.url}/about-us`, { headers: BROWSER })
    expect(broken.status).toBe(500)
    expect(broken.headers.get('cache-control')).toBe('no-store')
    const html = await broken.text()
    expect(html).toContain('Template failed to compile')
    expect(html).toMatch(/templates\/content\/Text\.tsx:\d+:\d+/)
    expect(html).toContain('&gt;')
    // a bot gets the status alone, another Host is refused as ever
    const bot = await fetch(`${server.url}/about-us`, { headers: { 'user-agent': 'Googlebot/2.1' } })
    expect([bot.status, await bot.text()]).toEqual([500, '500 Internal Server Error\n'])
    const foreign = await new Promise<number | undefined>((done, fail) =>
      request(`${server.url}/`, { headers: { ...BROWSER, host: 'evil.example' } }, (res) => {
        res.resume()
        done(res.statusCode)
      })
        .on('error', fail)
        .end(),
    )
    expect(foreign).toBe(403)

    const events = await fetch(`${server.url}/_site/events`)
    const reader = events.body!.getReader()
    expect(problemOf(await nextEvent(reader, 'problem'))).toMatchObject({ title: 'Template failed to compile' })
    const source = await readFile(file(), 'utf8')
    await writeFile(file(), source.slice(0, source.indexOf('\nexport const broken')))
    await nextEvent(reader, 'reload')
    await reader.cancel()
    const fixed = await fetch(`${server.url}/about-us`, { headers: BROWSER })
    expect(fixed.status).toBe(200)
    expect(await fixed.text()).toContain('<main')
  }, 30_000)
})
