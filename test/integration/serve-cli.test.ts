import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from './preview-helpers.js'

describe('site serve (the command)', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-serve-cli-'))
    await mkdir(join(root, '.output', 'public'), { recursive: true })
    await writeFile(join(root, '.output', 'public', 'index.html'), '<!doctype html><title>Built</title>')
  })
  afterAll(async () => rm(root, { recursive: true, force: true }))

  it('serves .output/public when there is no config, and exits 0 on SIGTERM', async () => {
    const run = startCli(['serve', '--port', '0'], root, /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//)
    const [, url] = await run.started
    expect(await (await fetch(`${url}/`)).text()).toContain('<title>Built</title>')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  }, 30_000)

  it('streams ranges of a large file, sends nosniff, and keeps dotfiles and _redirects to itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-serve-range-'))
    try {
      const out = join(dir, 'out')
      await mkdir(out)
      const video = Buffer.alloc(3 * 1024 * 1024, 7)
      video.write('tail', video.length - 4)
      await writeFile(join(out, 'video.bin'), video)
      await writeFile(join(out, '.env'), 'SECRET=1')
      await writeFile(join(out, '_redirects'), '/old /video.bin 301\n')
      const run = startCli(['serve', 'out', '--port', '0'], dir, /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//)
      const [, url] = await run.started
      const range = await fetch(`${url}/video.bin`, { headers: { range: 'bytes=-4' } })
      expect(range.status).toBe(206)
      expect(range.headers.get('content-range')).toBe(`bytes ${video.length - 4}-${video.length - 1}/${video.length}`)
      expect(range.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await range.text()).toBe('tail')
      const whole = await fetch(`${url}/video.bin`)
      expect(whole.headers.get('accept-ranges')).toBe('bytes')
      expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true)
      for (const path of ['/.env', '/_redirects']) {
        const hidden = await fetch(`${url}${path}`)
        expect(hidden.status, path).toBe(404)
        expect(await hidden.text(), path).not.toMatch(/SECRET|\/old/)
      }
      expect((await fetch(`${url}/old`, { redirect: 'manual' })).headers.get('location')).toBe('/video.bin')
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('serves build.outDir of a config that has no api.baseUrl (serving needs no API)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-serve-config-'))
    try {
      await mkdir(join(dir, 'dist-site'), { recursive: true })
      await writeFile(join(dir, 'dist-site', 'index.html'), '<!doctype html><title>From outDir</title>')
      await mkdir(join(dir, 'config'))
      await writeFile(join(dir, 'config', 'site.config.json'), JSON.stringify({ build: { outDir: 'dist-site' } }))
      const run = startCli(['serve', '--port', '0'], dir, /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//)
      const [, url] = await run.started
      expect(await (await fetch(`${url}/`)).text()).toContain('<title>From outDir</title>')
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('exits 2 naming a --config file that does not exist', async () => {
    const run = startCli(['serve', '--config', 'nope.config.ts', '--port', '0'], root, /never/)
    expect(await run.exited).toBe(2)
    expect(run.output().stderr).toContain('nope.config.ts')
  }, 30_000)

  it('exits 2 naming a missing folder', async () => {
    const run = startCli(['serve', 'not-built', '--port', '0'], root, /never/)
    expect(await run.exited).toBe(2)
    expect(run.output().stderr).toContain(`Folder not found: ${join(root, 'not-built')}`)
  }, 30_000)
})
