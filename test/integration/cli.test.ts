import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('../../bin/site.js', import.meta.url))
/** `site ...args` to its end; one that would run on (a server) is killed after `timeout` ms (code null). */
const site = (args: string[], cwd = process.cwd(), timeout?: number) => {
  const res = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    timeout,
  })
  return { code: res.status, stdout: res.stdout, stderr: res.stderr }
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('site CLI', () => {
  it.each(['build', 'preview', 'serve', 'demo-api', 'publish', 'deploy'])(
    '%s --help answers with its flags',
    (command) => {
      const res = site([command, '--help'])
      expect(res.code).toBe(0)
      expect(res.stdout).toContain(`Usage: site ${command}`)
    },
  )

  it('exits 2 on an unknown command or a bad flag value', () => {
    expect(site(['publsh']).code).toBe(2)
    const bad = site(['build', '--concurrency', 'many'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--concurrency: expected a whole number from 1 to 64')
    expect(site(['build', '--api', 'ftp://x']).stderr).toContain('--api: expected an http(s) URL, got protocol ftp:')
    // numbers are decimal digits: '' is no port 0 (an unset variable), 0x10 and 1e1 are no whole numbers here
    for (const [command, flag, value] of [
      ['serve', '--port', ''],
      ['serve', '--port', '0x1100'],
      ['demo-api', '--latency', ''],
      ['build', '--concurrency', '1e1'],
      ['build', '--concurrency', ' 4'],
    ] as const) {
      const res = site([command, flag, value])
      expect(res.code, `${command} ${flag} ${JSON.stringify(value)}`).toBe(2)
      expect(res.stderr).toMatch(new RegExp(`${flag}.*(must be|expected) a whole number`))
    }
  })

  it('exits 2, naming the option, when a value is left out and the next flag would be taken for it', async () => {
    const cwd = await mkdtemp(join(dir, 'flag-as-value-'))
    for (const [args, flags, value] of [
      [['build', '--out', '--json'], '--out <dir>', '--json'],
      [['build', '--config', '--site', 'www.example.com'], '--config <file>', '--site'],
      [['deploy', 'dir:x', '--site', '--dry-run'], '--site <host>', '--dry-run'],
      [['publish', '--api', '--port=0'], '--api <url>', '--port=0'],
      [['demo-api', '--port', '--latency', '5'], '--port <n>', '--latency'],
    ] as const) {
      const res = site([...args], cwd)
      expect(res.code, args.join(' ')).toBe(2)
      expect(res.stderr).toContain(`error: option '${flags}' needs a value, got '${value}'`)
    }
    expect(await readdir(cwd)).toEqual([])
  })

  it('exits 2, naming the option, for an empty value it would otherwise drop unsaid (an unset variable)', async () => {
    const cwd = await mkdtemp(join(dir, 'empty-value-'))
    for (const [args, flags] of [
      [['build', '--site', ''], '--site <host>'],
      [['build', '--config='], '--config <file>'],
      [['serve', '--config', ''], '--config <file>'],
      [['publish', '--port', '0', '--state', ''], '--state <dir>'],
      [['deploy', 'dir:x', '--site='], '--site <host>'],
    ] as const) {
      const res = site([...args], cwd, 5000)
      expect(res.code, args.join(' ')).toBe(2)
      expect(res.stderr).toContain(`error: option '${flags}' needs a value, got ''`)
    }
    expect(await readdir(cwd)).toEqual([])
  })

  it('exits 2 for demo-api --every-kind without --generate, which it would otherwise drop unsaid', () => {
    const res = site(['demo-api', '--port', '0', '--every-kind'], process.cwd(), 5000)
    expect(res.code).toBe(2)
    expect(res.stderr).toContain("error: option '--every-kind' needs '--generate <n>': it shapes the generated site")
    expect(res.stdout).not.toContain('Demo content API on')
  })

  it('exits 2 and lists every config problem with its key path', async () => {
    const file = join(dir, 'bad.json')
    await writeFile(file, JSON.stringify({ api: { baseUrl: 'nope', timeoutMs: -1 }, i18n: { default: 'fr' } }))
    const res = site(['build', '--config', file])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(`Invalid configuration in ${file}:`)
    expect(res.stderr).toContain('  - api.baseUrl: expected an absolute http(s) URL, got "nope"')
    expect(res.stderr).toContain('  - api.timeoutMs: expected a whole number of milliseconds from 1 to 2147483647')
    expect(res.stderr).not.toMatch(/\n\s+at /)
  })

  it('exits 2 with the unknown-host message for an unknown --site host', async () => {
    const file = join(dir, 'sites.json')
    await writeFile(
      file,
      JSON.stringify({
        api: { baseUrl: 'http://127.0.0.1:9' },
        sites: [{ hostname: 'www.example.com' }, { hostname: 'www.example.de' }],
      }),
    )
    const unknown = site(['build', '--config', file, '--site', 'shop.example.com'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Hostname: shop.example.com not found in sites configuration')
    const ambiguous = site(['preview', '--config', file, '--site', 'nowhere.example', '--no-watch'])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain('Hostname: nowhere.example not found in sites configuration')
  })

  it("refuses to deploy one site into another site's output folder, naming that site", async () => {
    const file = join(dir, 'two-outputs.json')
    const de = join(dir, 'out-de')
    await writeFile(
      file,
      JSON.stringify({
        api: { baseUrl: 'http://127.0.0.1:9' },
        sites: [
          { hostname: 'www.example.com', build: { outDir: join(dir, 'out-com') } },
          { hostname: 'www.example.de', build: { outDir: de } },
        ],
      }),
    )
    for (const target of [de, join(de, 'www')]) {
      const res = site(['deploy', `dir:${target}`, '--config', file, '--site', 'www.example.com', '--dry-run'])
      expect(res.code, target).toBe(2)
      expect(res.stderr).toContain(
        `The deploy folder ${target} and the output folder ${de} of www.example.de may not hold one another`,
      )
    }
  })

  it('exits 2 for a --site host that is not the one site of a config without sites', async () => {
    const file = join(dir, 'one-site.json')
    await writeFile(
      file,
      JSON.stringify({ baseUrl: 'https://www.example.com', api: { baseUrl: 'http://127.0.0.1:9' } }),
    )
    for (const command of [['build'], ['deploy', `dir:${join(dir, 'one-site-deployed')}`, '--dry-run']]) {
      const res = site([...command, '--config', file, '--site', 'shop.example.com'])
      expect(res.code).toBe(2)
      expect(res.stderr).toContain('Hostname: shop.example.com not found in sites configuration')
      expect(res.stderr).toContain('Configured hosts: www.example.com')
    }
  })

  it('names a missing config file', () => {
    const res = site(['build', '--config', 'missing.ts'], dir)
    expect(res.code).toBe(2)
    expect(res.stderr.trim()).toBe(`Config file not found: ${join(dir, 'missing.ts')}`)
  })

  it('exits 1 with "Initial Data is unavailable" when the API cannot be reached', () => {
    const res = site(['build', '--api', 'http://127.0.0.1:9', '--out', join(dir, 'out')])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/Initial Data is unavailable: ECONNREFUSED/)
  })
})
