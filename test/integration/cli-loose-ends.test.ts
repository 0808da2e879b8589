/**
 * The CLI's loose ends, through the real executable (bin/site.js, compiled dist/) and
 * scripts/demo.mjs: --version, a busy port for demo-api and `npm run demo`, a failed build that said
 * 'Written: N files', and demo-api's faults from the shell (--fail, --fail-initial).
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-helpers.js'
import { runScript, runSite } from './cli-helpers.js'
import { startCli } from './preview-helpers.js'

const run = runScript
const site = (args: string[]) => runSite(args)

let busy: Server
let busyPort: number
let dir: string

beforeAll(async () => {
  busy = createServer()
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
  busyPort = (busy.address() as { port: number }).port
  dir = await mkdtemp(join(tmpdir(), 'site-cli-loose-ends-'))
})
afterAll(async () => {
  await new Promise<void>((done) => busy.close(() => done()))
  await rm(dir, { recursive: true, force: true })
})

describe('site CLI loose ends', () => {
  it.each([['demo-api', '--help'], ['--help']])(
    'ends quietly, with exit code 141, when its reader closed the pipe early: site %s',
    async (...args) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.destroy()
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
      })
      const code = await new Promise((done) => child.on('close', done))
      expect([code, stderr]).toEqual([141, ''])
    },
  )

  it.skipIf(!existsSync('/dev/full'))(
    'says so without a stack, exit code 1, when its stdout cannot be written (a full disk under > file)',
    async () => {
      const full = openSync('/dev/full', 'w')
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), '--help'], {
        stdio: ['ignore', full, 'pipe'],
      })
      closeSync(full)
      let stderr = ''
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
      })
      const code = await new Promise((done) => child.on('close', done))
      expect([code, stderr]).toEqual([1, 'Cannot write to stdout: ENOSPC: no space left on device, write\n'])
    },
  )

  it('says that the folder it runs in is gone (removed since the shell entered it), exit code 2, not uv_cwd', async () => {
    const gone = join(dir, 'gone')
    await mkdir(gone)
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), 'build'], { cwd: gone })
    await rm(gone, { recursive: true })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    const code = await new Promise((done) => child.on('close', done))
    expect([code, stderr]).toEqual([
      2,
      'The current folder no longer exists (removed or replaced since the shell entered it): cd into the project again\n',
    ])
  })

  // site init and site serve given an absolute folder need no current folder, yet stopped with the message above
  it('creates a site, and serves a folder, named by an absolute path from a folder that is gone', async () => {
    const start = async (args: string[]) => {
      const gone = join(dir, 'gone-again')
      await mkdir(gone)
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), ...args], { cwd: gone })
      await rm(gone, { recursive: true })
      let output = ''
      for (const stream of [child.stdout, child.stderr])
        stream.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk
        })
      const code = new Promise((done) => child.on('close', done))
      return { child, code, output: () => output }
    }
    const created = join(dir, 'created-from-nowhere')
    const init = await start(['init', created])
    expect(await init.code, init.output()).toBe(0)
    expect(init.output()).toContain(`Created a site in ${created} (`)
    expect(existsSync(join(created, 'package.json'))).toBe(true)
    const serve = await start(['serve', join(created, 'public'), '--port', '0'])
    while (!serve.output().includes('Serving') && serve.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 50))
    expect(serve.output()).toContain(`Serving ${join(created, 'public')} at http://127.0.0.1:`)
    serve.child.kill('SIGTERM')
    expect(await serve.code).toBe(0)
  })

  // in templates/, deploy and serve took the folder for a project of no config and looked for templates/.output/public
  it.each([
    [['deploy', 'dir:/nowhere/site']],
    [['deploy', 'dir:../public', '--out', '../.output/public']],
    [['serve']],
  ])('site %j in a folder of a project says to run it in the project folder, exit code 2', async (args) => {
    const project = join(dir, 'project')
    const sub = join(project, 'templates')
    await mkdir(join(project, 'config'), { recursive: true })
    await mkdir(sub, { recursive: true })
    await writeFile(join(project, 'config/site.config.json'), '{}')
    const res = await runSite(args, { cwd: sub })
    expect([res.code, res.stderr]).toEqual([
      2,
      expect.stringContaining(`run the command in the project's folder, ${project}`),
    ])
  })

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    for (const flag of ['--version', '-V']) {
      const res = await site([flag])
      expect(res.code).toBe(0)
      expect(res.stdout).toBe(`${version}\n`)
    }
  })

  it('demo-api on a busy port says so and how to choose another, exit 2, no stack', async () => {
    const res = await site(['demo-api', '--port', String(busyPort)])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe(`Port ${busyPort} on 127.0.0.1 is already in use; pass --port N\n`)
  })

  it('npm run demo on a busy port names its own way to choose another', async () => {
    const site = await run('scripts/demo.mjs', ['--port', String(busyPort)])
    expect(site.code).toBe(2)
    expect(site.stderr).toBe(
      `npm run demo: port ${busyPort} for the site is already in use; choose another with npm run demo -- --port N (or PORT=N)\n`,
    )
    const api = await run('scripts/demo.mjs', ['--port', '1', '--api-port', String(busyPort)])
    expect(api.code).toBe(2)
    expect(api.stderr).toContain(`port ${busyPort} for the demo API is already in use`)
  })

  it('demo-api refuses a --fail it cannot read, naming the flag', async () => {
    const res = await site(['demo-api', '--port', '0', '--fail', 'about-us=500'])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain('--fail expects PATH=STATUS')
    expect(res.stderr).toContain('"about-us=500"')
  })

  it('demo-api --fail PATH=STATUS fails that path; a build against it fails, names it and writes nothing', async () => {
    const api = startCli(
      ['demo-api', '--port', '0', '--fail', '/services=503', '--fail', '/about-us?x=1=reset'],
      REPO_ROOT,
      // Both lines: the banner names the faults.
      /Demo content API on (http:\/\/\S+) .*\nFailing on purpose: ([^\n]*)\n/,
    )
    try {
      const [, url, failing] = await api.started
      expect(failing).toBe('/services -> 503, /about-us?x=1 -> reset')
      expect((await fetch(`${url}/services`)).status).toBe(503)
      expect((await fetch(`${url}/about-us`)).status).toBe(200)
      await expect(fetch(`${url}/about-us?x=1`)).rejects.toThrow()
      const out = join(dir, 'out')
      const build = await site(['build', '--api', url as string, '--out', out])
      expect(build.code).toBe(1)
      expect(build.stdout + build.stderr).toMatch(/\/services\s+503/)
      expect(build.stdout + build.stderr).toContain(`Build failed: 1 path(s) failed; ${out} was left as it was.`)
      expect(build.stdout + build.stderr).not.toContain('Written:')
    } finally {
      api.child.kill('SIGTERM')
      await api.exited
    }
  })

  it.each([
    ['--fail-initial=', ['--fail-initial='], ''],
    ["--fail-initial ''", ['--fail-initial', ''], ''],
    ['--fail-initial 999', ['--fail-initial', '999'], '999'],
  ])(
    'demo-api %s: exit 2 naming the status, no API started',
    async (_name, flag, status) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), 'demo-api', '--port', '0', ...flag], {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 10_000,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const code = await new Promise((done) => child.on('close', done))
      expect(stdout).toBe('')
      expect(stderr).toBe(
        `--fail-initial expects STATUS one of 404, 500, 503, reset, hang, malformed-json, html; got "${status}"\n`,
      )
      expect(code).toBe(2)
    },
    20_000,
  )

  it('demo-api --fail-initial fails initial data of every locale: the build stops with "Initial Data is unavailable"', async () => {
    const api = startCli(
      ['demo-api', '--port', '0', '--fail-initial'],
      REPO_ROOT,
      /Demo content API on (http:\/\/[^ ]+) /,
    )
    try {
      const [, url] = await api.started
      for (const path of ['/?type=834', '/pl?type=834', '/de/?type=834'])
        expect((await fetch(`${url}${path}`)).status, path).toBe(500)
      expect((await fetch(`${url}/about-us`)).status).toBe(200)
      const build = await site(['build', '--api', url as string, '--out', join(dir, 'out-initial')])
      expect(build.code).toBe(1)
      expect(build.stderr).toContain('Initial Data is unavailable: HTTP 500')
    } finally {
      api.child.kill('SIGTERM')
      await api.exited
    }
  })

  // CI often sets NODE_ENV from a variable that is not defined (`NODE_ENV: ${{ vars.NODE_ENV }}`): an empty NODE_ENV
  // rendered every page with React's development build, slower and with its warnings, where preview took it as unset.
  it.each(['build', 'publish'])('site %s takes an empty NODE_ENV as unset: React in production', async (command) => {
    // the config is read where the pages are rendered, with the environment they are rendered in
    const config = join(dir, 'node-env.mjs')
    await writeFile(config, "throw new Error('NODE_ENV=' + JSON.stringify(process.env['NODE' + '_ENV']))\n")
    const res = await runSite([command, '--config', config, '--out', join(dir, 'node-env-out')], {
      env: { NODE_ENV: '' },
    })
    expect(res.stderr).toContain('failed to evaluate: NODE_ENV="production"')
  })
})
