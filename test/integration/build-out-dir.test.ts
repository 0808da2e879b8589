/**
 * The output folder through the real CLI: `--out` never replaces a folder
 * that holds something else than a previous `site` output unless `--force`; an interrupted build
 * (SIGINT, SIGTERM) removes its temporary folder; a build removes the stale temporary folders that
 * an earlier, killed build left beside OUT.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { diffTrees, REPO_ROOT, readTree, type SiteProcess, startSite } from './build-helpers.js'
import { runCommand } from './cli-helpers.js'

const start = startSite
const site = (args: string[]) => start(args).done

/** The lock a running `site build` holds beside OUT. */
const BUILD_LOCK = '.out-build.lock'

/** What a build keeps beside OUT: temporary folders (`.out-tmp-…`, `.out-old-…`) and its lock while it runs. */
const siblings = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith('.out-'))

/** Resolves once a temporary folder beside OUT holds a written page (the build is past its start-up). */
async function waitForPagesInTemp(dir: string, run: SiteProcess): Promise<string> {
  let exited = false
  void run.done.then(() => (exited = true))
  for (;;) {
    if (exited) throw new Error(`the build ended before it wrote a page: ${(await run.done).stderr}`)
    for (const name of await siblings(dir))
      if (name.startsWith('.out-tmp-') && existsSync(join(dir, name, 'index.html'))) return name
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

let api: DemoApi
let slowApi: DemoApi
let dir: string

beforeAll(async () => {
  // A slow API of many pages: a build of it is still crawling when the test interrupts it.
  ;[api, slowApi] = await Promise.all([
    startDemoApi({ port: 0 }),
    startDemoApi({ port: 0, latencyMs: 100, generate: { pagesPerLocale: 400 } }),
  ])
  dir = await mkdtemp(join(tmpdir(), 'site-out-dir-'))
})

afterAll(async () => {
  await Promise.all([api?.close(), slowApi?.close()])
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('site build --out DIR', () => {
  it('refuses a folder with unrelated files, with exit code 2 and the path named, and keeps the files', async () => {
    const out = join(dir, 'unrelated')
    await mkdir(out)
    await writeFile(join(out, 'notes.txt'), 'mine')
    const res = await site(['build', '--api', api.url, '--out', out])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(out)
    expect(res.stderr).toContain('--force')
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine')
    expect(await readdir(out)).toEqual(['notes.txt'])
    expect(await siblings(dir)).toEqual([])
  }, 60_000)

  it('refuses a link to a previous output naming it a link, not a file, and leaves the link as it was', async () => {
    const real = join(dir, 'linked-real')
    const out = join(dir, 'linked-out')
    expect((await site(['build', '--api', api.url, '--out', real])).code).toBe(0)
    await symlink(real, out)
    const res = await site(['build', '--api', api.url, '--out', out])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(`Refusing to build into ${out}: it is a symbolic link, not a folder`)
    expect((await lstat(out)).isSymbolicLink()).toBe(true)
  }, 60_000)

  it('replaces that folder with --force', async () => {
    const out = join(dir, 'forced')
    await mkdir(out)
    await writeFile(join(out, 'notes.txt'), 'mine')
    const res = await site(['build', '--api', api.url, '--out', out, '--force'])
    expect(res.code).toBe(0)
    expect(existsSync(join(out, 'notes.txt'))).toBe(false)
    expect(existsSync(join(out, 'index.html'))).toBe(true)
  }, 60_000)

  it('builds into an empty folder and over its own previous output', async () => {
    const out = join(dir, 'empty')
    await mkdir(out)
    expect((await site(['build', '--api', api.url, '--out', out])).code).toBe(0)
    expect((await site(['build', '--api', api.url, '--out', out])).code).toBe(0)
    expect(existsSync(join(out, 'pl/o-nas/index.html'))).toBe(true)
  }, 90_000)

  // a CI job's --site and --out out of step: the other site's output was replaced, and its deploy published it
  it("refuses another site's output of the config, naming that site, unless --force", async () => {
    const config = join(dir, 'two-sites.json')
    const com = join(dir, 'out-com')
    const sites = [
      { hostname: 'www.example.com', build: { outDir: com } },
      { hostname: 'www.example.de', build: { outDir: join(dir, 'out-de') } },
    ]
    await writeFile(config, JSON.stringify({ api: { baseUrl: api.url }, sites }))
    const build = (args: string[]) => site(['build', '--config', config, ...args])
    expect((await build(['--site', 'www.example.com'])).code).toBe(0)
    expect(await readFile(join(com, '_site/builds/latest.json'), 'utf8')).toContain('"site":"www.example.com"')
    const before = await readTree(com)
    const refused = await build(['--site', 'www.example.de', '--out', com])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      `Refusing to build into ${com}: it holds the output of www.example.com, another site of the config (build that one with --site www.example.com)`,
    )
    expect(diffTrees(before, await readTree(com))).toEqual([])
    expect((await build(['--site', 'www.example.de', '--out', com, '--force'])).code).toBe(0)
    expect(await readFile(join(com, '_site/builds/latest.json'), 'utf8')).toContain('"site":"www.example.de"')
  }, 120_000)

  it('refuses a file in place of the folder', async () => {
    const out = join(dir, 'a-file')
    await writeFile(out, 'not a folder')
    const res = await site(['build', '--api', api.url, '--out', out])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(out)
    expect(await readFile(out, 'utf8')).toBe('not a folder')
  }, 60_000)
})

describe('an interrupted build', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`removes its temporary folder on ${signal} and leaves OUT as it was`, async () => {
      const parent = join(dir, signal)
      const out = join(parent, 'out')
      await mkdir(out, { recursive: true })
      await writeFile(join(out, 'index.html'), 'previous')
      await mkdir(join(out, '_site/builds'), { recursive: true })
      await writeFile(join(out, '_site/builds/latest.json'), '{"id":"previous"}\n')
      const before = await readTree(out)

      const run = start(['build', '--api', slowApi.url, '--out', out, '--json'])
      await waitForPagesInTemp(parent, run)
      run.child.kill(signal)
      const res = await run.done
      expect(res.code).toBe(code)
      expect(res.stderr).toContain('interrupted')
      // the summary a pipeline reads says what the process exits with
      expect(JSON.parse(res.stdout)).toMatchObject({ ok: false, kind: 'BUILD_INTERRUPTED', exitCode: code })
      expect(await siblings(parent)).toEqual([])
      expect(diffTrees(await readTree(out), before)).toEqual([])
    }, 120_000)
  }

  it('stops without waiting for an API that has not answered its initial data', async () => {
    // an API that answers after the test's own time limit: a build that waited for it would time the test out
    const silent = await startDemoApi({ port: 0, latencyMs: 600_000 })
    try {
      const parent = join(dir, 'unanswered')
      const out = join(parent, 'out')
      await mkdir(parent)
      const run = start(['build', '--api', silent.url, '--out', out, '--json'])
      // its temporary folder is made once the build has asked for the initial data
      while (!(await siblings(parent)).some((name) => name.startsWith('.out-tmp-')))
        await new Promise((resolve) => setTimeout(resolve, 25))
      run.child.kill('SIGTERM')
      const res = await run.done
      expect(res.code, res.stderr).toBe(143)
      expect(JSON.parse(res.stdout)).toMatchObject({ ok: false, kind: 'BUILD_INTERRUPTED', exitCode: 143 })
      expect(res.stderr).not.toContain('Initial Data is unavailable')
      expect(await siblings(parent)).toEqual([])
    } finally {
      await silent.close()
    }
  }, 60_000)

  // A config that awaits something that never settles (a vault that does not answer) held the build in its start-up:
  // the first SIGTERM or Ctrl-C was taken as "stop the build" and nothing stopped, so the process waited for ever.
  it('stops on the first signal while its config is still loading', async () => {
    const marker = join(dir, 'config-loading')
    const config = join(dir, 'never.config.mjs')
    await writeFile(
      config,
      `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(marker)}, '')\nexport default await new Promise((answered) => setTimeout(answered, 600_000))\n`,
    )
    const run = start(['build', '--config', config, '--out', join(dir, 'never-out'), '--json'])
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 25))
    run.child.kill('SIGTERM')
    const res = await run.done
    expect(res.code, res.stderr).toBe(143)
    expect(JSON.parse(res.stdout)).toMatchObject({ ok: false, kind: 'BUILD_INTERRUPTED', exitCode: 143 })
  }, 60_000)

  it('fails a config that awaits what never settles, with nothing left to settle it, at once', async () => {
    const config = join(dir, 'stalled.config.mjs')
    await writeFile(config, 'export default await new Promise(() => {})\n')
    const res = await start(['build', '--config', config, '--out', join(dir, 'stalled-out'), '--json']).done
    expect(res.code, res.stderr).toBe(2)
    expect(JSON.parse(res.stdout)).toMatchObject({
      ok: false,
      kind: 'CONFIG_INVALID',
      message: expect.stringContaining(
        `${config}:\n  - (file): failed to evaluate: it awaits something that never settles`,
      ),
    })
  }, 60_000)

  it('leaves stale temporary folders behind on SIGKILL, and the next build removes them', async () => {
    const parent = join(dir, 'killed')
    const out = join(parent, 'out')
    await mkdir(parent)
    const run = start(['build', '--api', slowApi.url, '--out', out])
    const temp = await waitForPagesInTemp(parent, run)
    run.child.kill('SIGKILL')
    await run.done
    // and one from an older `site` version, and a previous output moved aside by an interrupted swap
    await mkdir(join(parent, '.out-tmp-3f2a9c01d4e5b6a7/de'), { recursive: true })
    await mkdir(join(parent, '.out-old-3f2a9c01d4e5b6a7'))
    expect((await siblings(parent)).sort()).toEqual(
      [BUILD_LOCK, '.out-old-3f2a9c01d4e5b6a7', '.out-tmp-3f2a9c01d4e5b6a7', temp].sort(),
    )
    // the killed build's lock still names it: the next build takes it over
    expect(await readFile(join(parent, BUILD_LOCK), 'utf8')).toMatch(new RegExp(`^${run.child.pid}\n\\d+\n$`))

    const res = await site(['build', '--api', api.url, '--out', out])
    expect(res.code).toBe(0)
    expect(await siblings(parent)).toEqual([])
    expect(existsSync(join(out, 'index.html'))).toBe(true)
  }, 120_000)
})

describe('a swap cut between its two renames', () => {
  it('puts the output it moved aside back, and builds over it as the previous output', async () => {
    const parent = join(dir, 'cut-swap')
    const out = join(parent, 'out')
    await mkdir(parent)
    expect((await site(['build', '--api', api.url, '--out', out])).code).toBe(0)
    // the build that moved OUT aside was killed before it renamed its own folder in (pid 2^22 + 1: gone)
    await rename(out, join(parent, '.out-old-4194305-0a1b2c3d4e5f'))
    const res = await site(['build', '--api', api.url, '--out', out, '--only', '/contact'])
    expect(res.code, res.stderr).toBe(0)
    const said = `${res.stdout}${res.stderr}`
    expect(said).not.toContain('no previous output')
    expect(said).toMatch(/Only: \d+ page\(s\) asked of the API again for \/contact/)
    expect(await siblings(parent)).toEqual([])
  }, 120_000)
})

describe('two builds into one output folder', () => {
  it('refuses the second while the first runs: exit 1, the first named, OUT as it was', async () => {
    const parent = join(dir, 'two-builds')
    const out = join(parent, 'out')
    await mkdir(parent)
    expect((await site(['build', '--api', api.url, '--out', out])).code).toBe(0)
    const before = await readTree(out)
    const first = start(['build', '--api', slowApi.url, '--out', out])
    try {
      const temp = await waitForPagesInTemp(parent, first)
      const second = await site(['build', '--api', api.url, '--out', out, '--json'])
      expect(second.code, second.stderr).toBe(1)
      const inUse = `The output folder ${out} is used by site build (process ${first.child.pid}): wait for it to finish, or build into another --out`
      expect(second.stderr).toContain(inUse)
      expect(JSON.parse(second.stdout)).toMatchObject({ ok: false, kind: 'OUT_DIR_IN_USE', message: inUse })
      expect(diffTrees(before, await readTree(out))).toEqual([])
      // the second wrote nothing beside OUT either, and the first's lock is still its own
      expect((await siblings(parent)).sort()).toEqual([BUILD_LOCK, temp].sort())
      expect(await readFile(join(parent, BUILD_LOCK), 'utf8')).toMatch(new RegExp(`^${first.child.pid}\n\\d+\n$`))
    } finally {
      first.child.kill('SIGTERM')
    }
    expect((await first.done).code).toBe(143)
    // a build that ends leaves no lock behind
    expect(await siblings(parent)).toEqual([])
  }, 120_000)

  it('takes over a lock that names a process that is gone, or that is no lock at all', async () => {
    const parent = join(dir, 'odd-locks')
    const out = join(parent, 'out')
    await mkdir(parent)
    const gone = start(['--version'])
    await gone.done
    // a link is not followed, even to a file that names a running process (this one), and what it points to stays
    const linked = join(dir, 'linked-lock')
    await writeFile(linked, `${process.pid}\n`)
    for (const [what, make] of [
      ['a process that is gone', () => writeFile(join(parent, BUILD_LOCK), `${gone.child.pid}\n`)],
      ['garbage', () => writeFile(join(parent, BUILD_LOCK), 'not a pid \u0000\n'.repeat(100))],
      ['a link', () => symlink(linked, join(parent, BUILD_LOCK))],
    ] as const) {
      await make()
      const res = await site(['build', '--api', api.url, '--out', out])
      expect(res.code, `${what}: ${res.stderr}`).toBe(0)
      expect(await siblings(parent), what).toEqual([])
    }
    expect(await readFile(linked, 'utf8')).toBe(`${process.pid}\n`)
  }, 120_000)

  // a runner lost mid-build, then two CI jobs at once: each took the killed build's lock over, and both built
  it('lets only one of several takers at once take over the lock of a killed build, and leaves nothing beside it', async () => {
    const parent = join(dir, 'stale-race')
    await mkdir(parent)
    const lock = join(parent, BUILD_LOCK)
    const owner = pathToFileURL(join(REPO_ROOT, 'dist/build/output/owner.js')).href
    // each holds what it took until all have tried (a folder of marks, one a taker): one that started late, on a
    // busy machine, must not find the lock given up by a taker that held it for a set time
    const take = `const { readdir, writeFile } = await import('node:fs/promises')
      const { takeLock } = await import(${JSON.stringify(owner)})
      const refuse = { held: () => new Error('held'), failed: (why) => new Error(why) }
      if (await takeLock(process.argv[1], refuse).catch(() => undefined)) console.log('took')
      await writeFile(process.argv[2] + '/' + process.pid, '')
      while ((await readdir(process.argv[2])).length < 6) await new Promise((resolve) => setTimeout(resolve, 20))`
    for (let round = 0; round < 6; round++) {
      await writeFile(lock, '4194305\n')
      const tried = join(dir, 'stale-race-tried', String(round))
      await mkdir(tried, { recursive: true })
      const runs = await Promise.all(
        Array.from({ length: 6 }, () => runCommand(process.execPath, ['--input-type=module', '-e', take, lock, tried])),
      )
      expect(runs.filter((run) => run.stdout === 'took\n').length, `round ${round}`).toBe(1)
      expect(await siblings(parent)).toEqual([BUILD_LOCK])
    }
  }, 120_000)

  it('refuses a folder where the lock goes, naming it, and leaves it', async () => {
    const parent = join(dir, 'folder-lock')
    const out = join(parent, 'out')
    await mkdir(join(parent, BUILD_LOCK, 'inside'), { recursive: true })
    const res = await site(['build', '--api', api.url, '--out', out])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(
      `Cannot build into ${out}: ${join(parent, BUILD_LOCK)} is a folder, not a lock file: remove it`,
    )
    expect(existsSync(join(parent, BUILD_LOCK, 'inside'))).toBe(true)
    expect(existsSync(out)).toBe(false)
  }, 120_000)
})

describe('a deploy and a build of one output folder', () => {
  /** `site deploy` from a project folder of its own (a command target keeps its manifest in the project). */
  const deployFrom = (project: string, args: string[]): SiteProcess => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), 'deploy', ...args], {
      cwd: project,
      env: { ...process.env, CI: 'true' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const done = new Promise<Awaited<SiteProcess['done']>>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
    })
    return { child, done }
  }

  it('refuses a build while a deploy reads the folder, and a deploy while a build writes it', async () => {
    const parent = join(dir, 'deploying')
    const out = join(parent, 'out')
    const project = join(dir, 'deploying-project')
    await mkdir(parent)
    await mkdir(project)
    expect((await site(['build', '--api', api.url, '--out', out])).code).toBe(0)
    const before = await readTree(out)
    const started = join(project, 'started')
    const deploying = deployFrom(project, [`command:touch '${started}'; sleep 4`, '--out', out])
    for (let waited = 0; !existsSync(started); waited += 25) {
      if (waited > 30_000) throw new Error(`the deploy did not run its command: ${(await deploying.done).stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const build = await site(['build', '--api', api.url, '--out', out])
    expect(build.code, build.stderr).toBe(1)
    expect(build.stderr).toContain(
      `The output folder ${out} is used by site deploy (process ${deploying.child.pid}): wait for it to finish, or build into another --out`,
    )
    expect(diffTrees(before, await readTree(out))).toEqual([])
    expect((await deploying.done).code).toBe(0)
    // a deploy that ends leaves no lock behind, and a build goes on
    expect(await siblings(parent)).toEqual([])

    const building = start(['build', '--api', slowApi.url, '--out', out])
    try {
      await waitForPagesInTemp(parent, building)
      const refused = await deployFrom(project, [`dir:${join(dir, 'deployed')}`, '--out', out]).done
      expect(refused.code, refused.stderr).toBe(1)
      expect(refused.stderr).toContain(
        `The output folder ${out} is used by site build (process ${building.child.pid}): wait for it to finish`,
      )
      expect(existsSync(join(dir, 'deployed'))).toBe(false)
      // a dry run only lists, and takes no lock
      const dryRun = await deployFrom(project, [`dir:${join(dir, 'deployed')}`, '--out', out, '--dry-run']).done
      expect(dryRun.code, dryRun.stderr).toBe(0)
    } finally {
      building.child.kill('SIGTERM')
    }
    await building.done
  }, 120_000)
})
