/**
 * A template caught in an endless loop: `site build` ends the render once it has run for `build.renderTimeoutMs`
 * and stops with RENDER_TIMEOUT naming the page (exit 1), the output folder as it was and nothing left beside it,
 * whether the page renders in the build's own thread (a small site) or in a render worker; a stop signal ends
 * such a build at once rather than never. A publisher fails that publish and tries again (or stops, rendering in
 * its own thread); `site preview` ends the render, starts its server again and takes a fix. The real CLI, a project
 * whose layout loops on one page.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { diffTrees, REPO_ROOT, readTree, startSite } from './build-helpers.js'
import { startCli } from './preview-helpers.js'
import { startPublisher, waitUntil } from './publish-helpers.js'

/** Printed by the layout as it starts looping on `/about-us` (a render thread's console goes to the CLI's stderr). */
const LOOPING = 'layout loops on /about-us'

let api: DemoApi
let project: string
/** The layout as it was, without the loop. */
let original: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  project = await mkdtemp(join(tmpdir(), 'site-render-timeout-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
  const layout = join(project, 'templates/layouts/Default.tsx')
  original = await readFile(layout, 'utf8')
  const start = 'export default function DefaultLayout({ content, page }: LayoutProps) {\n'
  expect(original).toContain(start)
  const looping = original.replace(
    start,
    `${start}  if (page.slug === '/about-us') {\n    console.error(${JSON.stringify(LOOPING)})\n    for (;;) {}\n  }\n`,
  )
  await writeFile(layout, looping)
  const config = await readFile(join(project, 'config/site.config.ts'), 'utf8')
  expect(config).toContain('  tracking: {},\n')
  for (const [name, build] of [
    ['inline', '{ renderTimeoutMs: 1000 }'],
    ['pool', '{ renderTimeoutMs: 1000, renderThreads: 1 }'],
    ['untimed', '{}'],
    ['publish', '{ renderTimeoutMs: 1000, renderThreads: 1 }'],
    ['publish-inline', '{ renderTimeoutMs: 1000, renderThreads: 0 }'],
    ['publish-inline-untimed', '{ renderThreads: 0 }'],
  ])
    await writeFile(
      join(project, `config/${name}.config.ts`),
      config.replace('  tracking: {},\n', `  tracking: {},\n  build: ${build},\n`),
    )
})

afterAll(async () => {
  await api?.close()
  if (project) await rm(project, { recursive: true, force: true })
})

/** A folder holding a previous output (as far as a build can tell) of its own, in a parent folder of its own. */
async function previousOutput(name: string): Promise<{ parent: string; out: string }> {
  const parent = join(project, 'runs', name)
  const out = join(parent, 'out')
  await mkdir(join(out, '_site/builds'), { recursive: true })
  await writeFile(join(out, 'index.html'), 'previous')
  await writeFile(join(out, '_site/builds/latest.json'), '{"id":"previous"}\n')
  return { parent, out }
}

describe('site build with a template that never ends', () => {
  it.each([
    ["in the build's own thread", 'inline'],
    ['in a render worker', 'pool'],
  ])(
    'ends the render %s after build.renderTimeoutMs: exit 1 naming the page, OUT as it was',
    async (_where, config) => {
      const { parent, out } = await previousOutput(config)
      const before = await readTree(out)
      const args = ['build', '--config', `config/${config}.config.ts`, '--api', api.url, '--out', out, '--json']
      const res = await startSite(args, { cwd: project }).done
      expect(res.code, res.stderr).toBe(1)
      expect(res.stderr).toContain(LOOPING)
      expect(res.stderr).toContain(
        'Rendering /about-us took longer than 1000 ms (build.renderTimeoutMs) and was stopped: its templates may loop for ever\nNothing was written to the output folder.',
      )
      expect(JSON.parse(res.stdout)).toMatchObject({ ok: false, kind: 'RENDER_TIMEOUT', exitCode: 1 })
      // neither the temporary folder nor the lock of the build stays beside OUT
      expect(await readdir(parent)).toEqual(['out'])
      expect(diffTrees(await readTree(out), before)).toEqual([])
    },
    60_000,
  )

  // Its thread busy with the loop, the build heard neither SIGINT nor SIGTERM; the limit (60 s) is longer than this test.
  it("stops on the first signal while a render loops in the build's own thread", async () => {
    const { parent, out } = await previousOutput('signal')
    const before = await readTree(out)
    const args = ['build', '--config', 'config/untimed.config.ts', '--api', api.url, '--out', out, '--json']
    const run = startSite(args, { cwd: project })
    let stderr = ''
    run.child.stderr?.on('data', (chunk) => (stderr += chunk))
    // a build that does not stop must not outlive the test, looping on a core of the machine
    onTestFinished(() => {
      run.child.kill('SIGKILL')
    })
    while (!stderr.includes(LOOPING)) await new Promise((resolve) => setTimeout(resolve, 25))
    run.child.kill('SIGINT')
    const res = await run.done
    expect(res.code, res.stderr).toBe(130)
    expect(JSON.parse(res.stdout)).toMatchObject({ ok: false, kind: 'BUILD_INTERRUPTED', exitCode: 130 })
    expect(await readdir(parent)).toEqual(['out'])
    expect(diffTrees(await readTree(out), before)).toEqual([])
  }, 30_000)
})

describe('site publish with a template that never ends', () => {
  it('fails each try with RENDER_TIMEOUT naming the page, goes on answering, and stops on SIGTERM', async () => {
    const { out } = await previousOutput('publish')
    const before = await readTree(out)
    const publisher = await startPublisher(
      ['--config', 'config/publish.config.ts', '--api', api.url, '--out', out, '--state', join(project, 'runs/state')],
      { cwd: project },
    )
    onTestFinished(() => {
      publisher.child.kill('SIGKILL')
    })
    // the retry renders in render workers started anew (a pool that ended one is not used again), and ends the same way
    await waitUntil(async () => (await publisher.status()).publishCount.failed >= 2, 'two failed publishes', 60_000)
    const status = await publisher.status()
    expect(status.publishCount.ok).toBe(0)
    for (const publish of status.publishes.slice(0, 2))
      expect(publish.error).toContain('Rendering /about-us took longer than 1000 ms (build.renderTimeoutMs)')
    expect((await fetch(`${publisher.url}/healthz`)).status).toBe(200)
    publisher.child.kill('SIGTERM')
    const res = await publisher.done
    expect(res.code, res.stderr).toBe(0)
    expect(diffTrees(await readTree(out), before)).toEqual([])
  }, 90_000)

  // Rendering in the thread that serves its webhooks (build.renderThreads: 0), it stopped answering for ever.
  it('stops with RENDER_TIMEOUT when it renders in its own thread, and hears SIGTERM during the loop', async () => {
    const { out } = await previousOutput('publish-inline')
    const before = await readTree(out)
    // a publisher that does not stop must not outlive the test, looping on a core of the machine
    const publish = (config: string, state: string) => {
      const flags = ['--config', `config/${config}.config.ts`, '--api', api.url, '--out', out]
      const started = startSite(['publish', '--port', '0', ...flags, '--state', join(project, 'runs', state)], {
        cwd: project,
      })
      onTestFinished(() => {
        started.child.kill('SIGKILL')
      })
      return started
    }
    const timed = await publish('publish-inline', 'state-inline').done
    expect(timed.code, timed.stderr).toBe(1)
    expect(timed.stderr).toContain(
      'Rendering /about-us took longer than 1000 ms (build.renderTimeoutMs) and was stopped',
    )
    const untimed = publish('publish-inline-untimed', 'state-untimed')
    let stderr = ''
    untimed.child.stderr?.on('data', (chunk) => (stderr += chunk))
    while (!stderr.includes(LOOPING)) await new Promise((resolve) => setTimeout(resolve, 25))
    untimed.child.kill('SIGTERM')
    const stopped = await untimed.done
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(stopped.stderr).not.toContain('goroutine')
    expect(diffTrees(await readTree(out), before)).toEqual([])
  }, 60_000)
})

describe('site preview with a template that never ends', () => {
  /** Preview of a copy of the project (its layout is fixed in one test) with `config`, stopped after the test. */
  async function startPreview(config: string) {
    const root = await mkdtemp(join(tmpdir(), 'site-render-timeout-preview-'))
    for (const dir of ['templates', 'config', 'public'])
      await cp(join(project, dir), join(root, dir), { recursive: true })
    const run = startCli(
      ['preview', '--port', '0', '--config', `config/${config}.config.ts`, '--api', api.url],
      root,
      /Preview: (http:\/\/127\.0\.0\.1:\d+)\//,
    )
    onTestFinished(async () => {
      run.child.kill('SIGKILL')
      await rm(root, { recursive: true, force: true })
    })
    const [, url] = await run.started
    const logged = (text: string) => async () => run.output().stderr.includes(text)
    return { run, root, url: url!, logged }
  }

  it('ends the render, says which page, starts again on the same port and takes a fix', async () => {
    const { run, root, url, logged } = await startPreview('inline')
    // the request that looped is never answered: its connection goes with the server's thread
    await expect(fetch(`${url}/about-us`)).rejects.toThrow()
    await waitUntil(logged('preview: started again'), 'preview to start again', 30_000)
    expect(run.output().stderr).toContain(
      'preview: Rendering /about-us took longer than 1000 ms (build.renderTimeoutMs) and was stopped: its templates may loop for ever; the preview server starts again',
    )
    expect((await fetch(`${url}/contact`)).status).toBe(200)
    await writeFile(join(root, 'templates/layouts/Default.tsx'), original)
    await waitUntil(logged('preview: reloaded after changes to templates/layouts/Default.tsx'), 'the reload', 30_000)
    const fixed = await fetch(`${url}/about-us`)
    expect(fixed.status).toBe(200)
    expect(await fixed.text()).toContain('About us')
    // esbuild's service of the ended server went quietly, not with a Go stack trace
    expect(run.output().stderr).not.toContain('goroutine')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
  }, 60_000)

  // The server's thread busy with the loop, preview heard no Ctrl-C; the limit (60 s) is longer than this test.
  it('stops on Ctrl-C while a render loops', async () => {
    const { run, url, logged } = await startPreview('untimed')
    const looped = fetch(`${url}/about-us`).catch(() => 'no answer')
    await waitUntil(logged(LOOPING), 'the loop', 20_000)
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    expect(await looped).toBe('no answer')
  }, 30_000)
})
