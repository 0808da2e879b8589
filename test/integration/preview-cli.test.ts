import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoApi } from '../../src/demo/server.js'
import { REPO_ROOT, startCli } from './preview-helpers.js'

describe('site preview (the command)', () => {
  let api: Awaited<ReturnType<typeof startDemoApi>>
  beforeAll(async () => {
    api = await startDemoApi({ port: 0 })
  })
  afterAll(async () => api?.close())

  it('prints the URL, serves, and exits 0 on SIGTERM', async () => {
    const run = startCli(
      ['preview', '--port', '0', '--api', api.url, '--no-watch'],
      REPO_ROOT,
      /Preview: (http:\/\/127\.0\.0\.1:\d+)\//,
    )
    const [, url] = await run.started
    const res = await fetch(`${url}/about-us`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/124.0' } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('About us')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  }, 60_000)

  it('exits 2 with one clear line for a missing config file', async () => {
    const run = startCli(['preview', '--port', '0', '--config', 'nope.config.ts'], REPO_ROOT, /never/)
    expect(await run.exited).toBe(2)
    expect(run.output().stderr).toMatch(/Config file not found: .*nope\.config\.ts/)
  }, 30_000)

  /**
   * Runs preview in a project of the demo's templates and public files with `config` as its config file, until
   * its API line; then stops it, whatever the assertions say (a failed test leaves no preview running), and
   * checks that it exits 0. Resolves to the API line and what it printed until then.
   */
  async function startLines(config: object, extraArgs: string[] = []): Promise<{ line: string; stdout: string }> {
    const root = await mkdtemp(join(tmpdir(), 'site-preview-cli-'))
    try {
      for (const dir of ['templates', 'public']) await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true })
      await writeFile(join(root, 'site.config.json'), JSON.stringify(config))
      const args = ['preview', '--port', '0', '--no-watch', '--config', 'site.config.json', ...extraArgs]
      const run = startCli(args, root, /API: .*\n/)
      try {
        const [line] = await run.started
        return { line: line!, stdout: run.output().stdout }
      } finally {
        run.child.kill('SIGTERM')
        expect(await run.exited).toBe(0)
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }

  it('names the API once when several sites share it', async () => {
    const { line } = await startLines({
      api: { baseUrl: api.url },
      i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
      sites: [{ hostname: 'www.example.com' }, { hostname: 'www.example.de' }],
    })
    expect(line).toBe(`API: ${api.url}\n`)
  }, 60_000)

  it('with --site names that site’s API only, and no choice by Host header', async () => {
    const config = {
      api: { baseUrl: 'http://127.0.0.1:9' },
      sites: [{ hostname: 'www.example.com' }, { hostname: 'www.example.de', api: { baseUrl: api.url } }],
    }
    const { stdout } = await startLines(config, ['--site', 'www.example.de'])
    expect(stdout).toMatch(/^Preview: http:\/\/127\.0\.0\.1:\d+\/\nAPI: /)
    expect(stdout).toContain(`API: ${api.url}\n`)
  }, 60_000)

  it('keeps the API password and query token off the terminal, naming the API by its address', async () => {
    // nothing listens on port 9: the "did not answer" line comes at once
    const secretApi = 'http://editor:pa55word-x@127.0.0.1:9/base?token=SEKRIT-1234'
    const run = startCli(
      ['preview', '--port', '0', '--api', secretApi, '--no-watch'],
      REPO_ROOT,
      /Preview: (http:\/\/127\.0\.0\.1:\d+)\/[\s\S]*API: .*\n/,
    )
    try {
      const [, url] = await run.started
      const res = await fetch(`${url}/about-us`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/124.0' } })
      expect(res.status).toBe(500)
      await expect.poll(() => run.output().stderr, { timeout: 10_000 }).toContain('did not answer')
    } finally {
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
    }
    const { stdout, stderr } = run.output()
    expect(stdout).toContain('API: http://***@127.0.0.1:9/base?token=***')
    expect(stderr).toContain('the content API at http://***@127.0.0.1:9/base?token=***')
    expect(`${stdout}${stderr}`).not.toMatch(/pa55word|SEKRIT/)
  }, 60_000)
})
