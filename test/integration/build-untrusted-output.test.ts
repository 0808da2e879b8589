/**
 * The previous output is input: a CI cache or a download may have put anything in OUT, the build
 * state included. Each case builds a real output, damages it the way an attacker or an accident
 * would, builds again over it, and checks that nothing outside OUT changed, that the build did not
 * fail or hang, and that OUT ends as a build from scratch over the same API data writes it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, lstatSync } from 'node:fs'
import { appendFile, mkdir, readdir, readFile, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifiedRecordFile } from '../../src/build/incremental/verified.js'
import { hashContents } from '../../src/build/output/write.js'
import type { BuildResult } from '../../src/build/types.js'
import type { DemoApi } from '../../src/demo/server.js'
import { createStaticHandler } from '../../src/serve/handler.js'
import { BUILD_STORE_FILE, LATEST_MANIFEST_FILE, REDIRECTS_FILE } from '../../src/shared/layout.js'
import {
  type BuildTools,
  buildSite,
  diffTrees,
  type EditableDemo,
  editFile,
  REPO_ROOT,
  readTree,
  startEditableDemo,
} from './build-helpers.js'

let demo: EditableDemo
let api: DemoApi
let tools: BuildTools
let dir: string
let content: string
/** A clean output of the current API data, built once per change of it. */
let clean: string

const build = (outDir: string, only?: string[]) => buildSite({ apiUrl: api.url, outDir, tools, only })

/** Every folder under `root`, relative. */
async function readFolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort()
}

/** What is in `root` that is neither a regular file nor a folder. */
async function readSpecial(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.filter((e) => !e.isDirectory() && !e.isFile()).map((e) => e.name)
}

/** OUT holds exactly what a build from scratch writes: the same files, byte for byte, the same folders, nothing else. */
async function expectSameAsClean(out: string): Promise<void> {
  expect(diffTrees(await readTree(clean), await readTree(out))).toEqual([])
  expect(await readFolders(out)).toEqual(await readFolders(clean))
  expect(await readSpecial(out)).toEqual([])
}

let round = 0
/** A copy of the clean output to damage (cp -a keeps what a tar-based cache keeps). */
async function copyOfClean(): Promise<string> {
  const out = join(dir, `out-${++round}`)
  execFileSync('cp', ['-a', clean, out])
  return out
}

async function rebuildClean(): Promise<void> {
  await rm(clean, { recursive: true, force: true })
  const result = await build(clean)
  expect(result.failures).toEqual([])
}

const state = (out: string) => join(out, BUILD_STORE_FILE)

/** Rewrites the first line of a state (its head) with `change`, keeping the rest as it is. */
async function editStateHead(out: string, change: (head: Record<string, unknown>) => void): Promise<void> {
  const text = await readFile(state(out), 'utf8')
  const newline = text.indexOf('\n')
  const head = JSON.parse(text.slice(0, newline)) as Record<string, unknown>
  change(head)
  await writeFile(state(out), `${JSON.stringify(head)}${text.slice(newline)}`)
}

const expectNote = (result: BuildResult, text: string) =>
  expect(result.notes).toEqual(expect.arrayContaining([expect.stringContaining(text)]))

beforeAll(async () => {
  demo = await startEditableDemo('site-untrusted-')
  ;({ dir, content, api, tools } = demo)
  clean = join(dir, 'clean')
  await rebuildClean()
}, 120_000)

afterAll(() => demo?.close())

describe('nothing outside OUT, ever', () => {
  it('builds in full into a fresh folder when a page folder is a link to a folder elsewhere, and writes nothing there', async () => {
    const out = await copyOfClean()
    const elsewhere = join(dir, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(join(elsewhere, 'keep.txt'), 'not the build’s')
    await rm(join(out, 'pl/o-nas'), { recursive: true })
    await symlink(elsewhere, join(out, 'pl/o-nas'))
    await editFile(join(content, 'pages/pl/o-nas.json'), 'Założyło je trzech', 'Założyło je pięciu')
    await api.reload()
    await rebuildClean()
    for (const only of [undefined, ['2']]) {
      const result = await build(out, only)
      expect(result.failures).toEqual([])
      expect(await readdir(elsewhere)).toEqual(['keep.txt'])
      await expectSameAsClean(out)
      if (only === undefined) expectNote(result, '"pl/o-nas" is a symbolic link')
      if (only === undefined) await symlink(elsewhere, join(out, 'pl/linked'))
    }
  })

  it('deletes nothing through a link the state names, and removes no folder outside', async () => {
    const out = await copyOfClean()
    const victim = join(dir, 'victim')
    await mkdir(join(victim, 'deep'), { recursive: true })
    await writeFile(join(victim, 'deep/secret.txt'), 'keep me')
    await symlink(victim, join(out, 'zz'))
    // the state lists a file under the link that this build does not write: it would be removed
    await editStateHead(out, (head) => {
      ;(head.files as Record<string, string>)['zz/deep/secret.txt'] = hashContents('keep me')
    })
    const result = await build(out)
    expect(result.failures).toEqual([])
    expect(await readFile(join(victim, 'deep/secret.txt'), 'utf8')).toBe('keep me')
    expect(existsSync(join(out, 'zz'))).toBe(false)
    await expectSameAsClean(out)
  })

  it('answers no rule of a _redirects that is a link out of the served folder (site serve)', async () => {
    const out = await copyOfClean()
    const outside = join(dir, 'outside-redirects')
    await writeFile(outside, '/* https://evil.example/:splat 302\n')
    await unlink(join(out, REDIRECTS_FILE))
    await symlink(outside, join(out, REDIRECTS_FILE))
    const handler = createStaticHandler({ dir: out })
    const response = await handler(new Request('http://127.0.0.1/about-us'))
    expect(response.status).toBe(200)
    expect(response.headers.get('location')).toBeNull()
    await response.body?.cancel() // closes the page's file (Node 26 fails a run that leaves it to the collector)
  })
})

describe('every stored entry is checked as the crawl checks its input', () => {
  it.each([
    [
      'a slug redirect whose source holds a newline',
      { from: '/old\n/* https://evil.example/:splat', kind: 'slug', uid: 2 },
    ],
    [
      'an API redirect of status 200 (a proxy rule)',
      { from: '/proxied', statusCode: 200, to: 'https://evil.example/' },
    ],
    ['a slug redirect at /robots.txt', { from: '/robots.txt', kind: 'slug', uid: 2 }],
    ['a slug redirect at the build manifest', { from: `/${LATEST_MANIFEST_FILE}`, kind: 'slug', uid: 2 }],
    ['a redirect source with ..', { from: '/a/../../etc', kind: 'slug', uid: 2 }],
  ])('builds in full, never failing, over a state with %s', async (_, redirect) => {
    const out = await copyOfClean()
    await editStateHead(out, (head) => {
      ;(head.redirects as unknown[]).push({ to: '/pl/o-nas', statusCode: 301, locale: 'en', kind: 'api', ...redirect })
    })
    for (const only of [['2'], undefined]) {
      const result = await build(out, only)
      expect(result.failures).toEqual([])
      expectNote(result, 'has a bad entry')
      await expectSameAsClean(out)
      const rules = await readFile(join(out, REDIRECTS_FILE), 'utf8')
      expect(rules).not.toContain('evil.example')
      await editStateHead(out, (head) => {
        ;(head.redirects as unknown[]).push({
          to: '/pl/o-nas',
          statusCode: 301,
          locale: 'en',
          kind: 'api',
          ...redirect,
        })
      })
    }
  })

  it('asks the API again for a path whose stored answer was a 404, and fails no --only build for it', async () => {
    const out = await copyOfClean()
    // the API redirects /old-services; a state that says it answered 404 would break every page linking there
    await editStateHead(out, (head) => {
      head.redirects = (head.redirects as Array<{ from: string }>).filter((r) => r.from !== '/old-services')
      ;(head.notFound as unknown[]).push({ path: '/old-services', status: 404 })
    })
    const result = await build(out, ['2'])
    expect(result.failures).toEqual([])
    await expectSameAsClean(out)
  })

  it('falls back to a full build over a state far larger than the site, read no further than its limit', async () => {
    const out = await copyOfClean()
    // 2,000,000 rows the pages do not account for: refused by size before a line is parsed
    const row = '["en",1,0,[],[],[],"","",null]\n'
    await appendFile(state(out), row.repeat(2_000_000))
    const result = await build(out)
    expect(result.failures).toEqual([])
    expectNote(result, 'over the limit')
    await expectSameAsClean(out)
  })
})

describe('what is kept is what the build wrote', () => {
  it('writes again a tampered, a missing and a changed file, removes planted ones, and says so', async () => {
    const out = await copyOfClean()
    const html = join(out, 'about-us/index.html')
    await writeFile(html, (await readFile(html, 'utf8')).replace('</body>', '<script>steal()</script></body>'))
    await unlink(join(out, 'pl/o-nas/_payload.json'))
    await writeFile(join(out, 'sitemap.xml'), '<urlset/>')
    await mkdir(join(out, 'evil'))
    await writeFile(join(out, 'evil/index.html'), '<h1>planted</h1>')
    await writeFile(join(out, 'leak.txt'), 'planted')
    for (const only of [['2'], undefined]) {
      const result = await build(out, only)
      expect(result.failures).toEqual([])
      await expectSameAsClean(out)
      if (only) {
        expectNote(result, 'Removing 2 file(s) the previous build did not write')
        expectNote(result, '"evil/index.html"')
        expectNote(result, 'Writing again 3 file(s)')
      }
      await writeFile(html, `${await readFile(html, 'utf8')}<script>again()</script>`)
    }
  })

  it('reads a kept file only when it may have changed since the last build over OUT checked it', async () => {
    const out = await copyOfClean()
    const keptBytes = [...(await readTree(out)).values()].reduce((sum, bytes) => sum + bytes.length, 0)
    /** Bytes this process has read so far (render workers are its threads). */
    const bytesRead = async () => Number(/rchar: (\d+)/.exec(await readFile('/proc/self/io', 'utf8'))?.[1])
    const readBy = async (only: string[] | undefined) => {
      const before = await bytesRead()
      const result = await build(out, only)
      expect(result.failures).toEqual([])
      return { result, bytes: (await bytesRead()) - before }
    }
    // a copy: no record of it, every kept file read; then each build finds the files as the last one left them
    await readBy(['2'])
    const recorded = await readBy(['2'])
    await rm(verifiedRecordFile(REPO_ROOT, out))
    const unrecorded = await readBy(['2'])
    expect(unrecorded.bytes - recorded.bytes).toBeGreaterThan(keptBytes * 0.8)
    // rewritten in place with its modification time put back: its change time moved, so it is read and caught
    const html = join(out, 'about-us/index.html')
    const { atime, mtime } = lstatSync(html)
    await writeFile(html, (await readFile(html, 'utf8')).replace('<html', '<HTML'))
    await utimes(html, atime, mtime)
    const caught = await readBy(['2'])
    expectNote(caught.result, 'Writing again 1 file(s)')
    await expectSameAsClean(out)
    // a record that names other hashes than the state for files as they are is no reason to keep them
    const record = verifiedRecordFile(REPO_ROOT, out)
    await writeFile(record, (await readFile(record, 'utf8')).replace(/\t[0-9a-f]{16}\t/g, '\t0000000000000000\t'))
    expect((await readBy(['2'])).bytes - recorded.bytes).toBeGreaterThan(keptBytes * 0.8)
    await expectSameAsClean(out)
  })

  it('puts files back where a folder stands in their way, and folders where a file does', async () => {
    const out = await copyOfClean()
    await unlink(join(out, 'robots.txt'))
    await mkdir(join(out, 'robots.txt/inside'), { recursive: true })
    await rm(join(out, 'de/kontakt'), { recursive: true })
    await writeFile(join(out, 'de/kontakt'), 'a file where a page folder was')
    const result = await build(out, ['2'])
    expect(result.failures).toEqual([])
    await expectSameAsClean(out)
  })

  it('removes a planted folder nested deeper than the system’s longest path, and builds over it again', async () => {
    const out = await copyOfClean()
    // 250 levels of 21 bytes: mkdir -p makes it level by level, no single path call could
    execFileSync('mkdir', ['-p', ['deep', ...Array(250).fill('a'.repeat(20))].join('/')], { cwd: out })
    for (const only of [undefined, ['2']]) {
      const result = await build(out, only)
      expect(result.failures).toEqual([])
      await expectSameAsClean(out)
      expect((await readdir(dir)).filter((name) => /^\.out-\d+-(?:tmp|old)-/.test(name))).toEqual([])
    }
  })

  it('builds in full over a planted link to a file elsewhere (a credential), and never publishes it', async () => {
    const out = await copyOfClean()
    const credential = join(dir, 'credential')
    await writeFile(credential, 'AWS_SECRET=x')
    await symlink(credential, join(out, 'leak.txt'))
    const result = await build(out, ['2'])
    expect(result.failures).toEqual([])
    expectNote(result, '"leak.txt" is a symbolic link')
    expect(existsSync(join(out, 'leak.txt'))).toBe(false)
    expect(await readFile(credential, 'utf8')).toBe('AWS_SECRET=x')
    await expectSameAsClean(out)
  })

  it('prepares and sanitises a kept payload again when it renders a page from it', async () => {
    const out = await copyOfClean()
    // an attacker who rewrites a payload and its hash in the state alike: the state cannot tell
    const file = 'de/ueber-uns/_payload.json'
    const before = await readFile(join(out, file), 'utf8')
    const after = before.replace(
      /"bodytext":"/,
      '"bodytext":"<img src=x onerror=alert(1)><script>alert(2)</script><a href=\\"javascript:alert(3)\\">x</a>',
    )
    expect(after).not.toBe(before)
    await writeFile(join(out, file), after)
    const text = await readFile(state(out), 'utf8')
    await writeFile(state(out), text.replace(hashContents(before), hashContents(after)))
    // a change of the German navigation renders every German page again from its payload
    await editFile(join(content, 'initial-data/de.json'), '"title": "Kontakt"', '"title": "Kontakt und Anfahrt"')
    await api.reload()
    const from = api.requests.length
    const result = await build(out, ['16'])
    expect(result.failures).toEqual([])
    expect(result.only?.rerenderedLocales).toEqual(['de'])
    // rendered from the payload, not asked of the API
    expect(api.requests.slice(from).map((r) => r.path)).not.toContain('/de/ueber-uns')
    const html = await readFile(join(out, 'de/ueber-uns/index.html'), 'utf8')
    expect(html).toContain('Kontakt und Anfahrt')
    expect(html).not.toMatch(/onerror|<script>alert|javascript:alert/)
    await editFile(join(content, 'initial-data/de.json'), '"title": "Kontakt und Anfahrt"', '"title": "Kontakt"')
    await api.reload()
  })
})

describe('bounded reads', () => {
  it.each([BUILD_STORE_FILE, LATEST_MANIFEST_FILE])(
    'never waits on %s as a FIFO: a full build, no hang',
    async (file) => {
      const out = await copyOfClean()
      await unlink(join(out, file))
      execFileSync('mkfifo', [join(out, file)])
      const result = await build(out)
      expect(result.failures).toEqual([])
      expectNote(result, 'is a FIFO')
      expect(lstatSync(join(out, file)).isFile()).toBe(true)
      await expectSameAsClean(out)
    },
  )

  it('never reads a state that is a link to /dev/zero', async () => {
    const out = await copyOfClean()
    await unlink(state(out))
    await symlink('/dev/zero', state(out))
    const result = await build(out)
    expect(result.failures).toEqual([])
    await expectSameAsClean(out)
  })

  it('ends on a second SIGTERM even with a thread-pool thread blocked on a read', async () => {
    const fifo = join(dir, 'blocking.config.json')
    execFileSync('mkfifo', [fifo])
    const child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'bin/site.js'), 'build', '--config', fifo, '--out', join(dir, 'never')],
      {
        stdio: 'ignore',
      },
    )
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    )
    await new Promise((done) => setTimeout(done, 1500))
    child.kill('SIGTERM')
    await new Promise((done) => setTimeout(done, 300))
    child.kill('SIGTERM')
    const timeout = new Promise<'hung'>((done) => setTimeout(() => done('hung'), 10_000).unref())
    const outcome = await Promise.race([exited, timeout])
    if (outcome === 'hung') child.kill('SIGKILL')
    expect(outcome).toEqual({ code: null, signal: 'SIGTERM' })
  })
})
