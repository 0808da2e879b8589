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
