/**
 * A template caught in an endless loop: `site build` ends the render once it has run for `build.renderTimeoutMs`
 * and stops with RENDER_TIMEOUT naming the page (exit 1), the output folder as it was and nothing left beside it,
 * whether the page renders in the build's own thread (a small site) or in a render worker; a stop signal ends
 * such a build at once rather than never. The real CLI, a project whose layout loops on one page.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { diffTrees, REPO_ROOT, readTree, startSite } from './build-helpers.js'
import { startPublisher, waitUntil } from './publish-helpers.js'

/** Printed by the layout as it starts looping on `/about-us` (a render thread's console goes to the CLI's stderr). */
const LOOPING = 'layout loops on /about-us'

let api: DemoApi
let project: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  project = await mkdtemp(join(tmpdir(), 'site-render-timeout-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
  const layout = join(project, 'templates/layouts/Default.tsx')
  const source = await readFile(layout, 'utf8')
  const start = 'export default function DefaultLayout({ content, page }: LayoutProps) {\n'
  expect(source).toContain(start)
  await writeFile(
    layout,
    source.replace(
      start,
      `${start}  if (page.slug === '/about-us') {\n    console.error(${JSON.stringify(LOOPING)})\n    for (;;) {}\n  }\n`,
    ),
  )
  const config = await readFile(join(project, 'config/site.config.ts'), 'utf8')
  expect(config).toContain('  tracking: {},\n')
  for (const [name, build] of [
    ['inline', '{ renderTimeoutMs: 1000 }'],
    ['pool', '{ renderTimeoutMs: 1000, renderThreads: 1 }'],
    ['untimed', '{}'],
    ['publish', '{ renderTimeoutMs: 1000, renderThreads: 1 }'],
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
        'Rendering /about-us took longer than 1000 ms (build.renderTimeoutMs): its templates may loop for ever; the output folder was left as it was',
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
})
