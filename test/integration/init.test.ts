/**
 * `site init [dir]`: a site project from the engine's demo, on a real disk; bad folders refused with the
 * path named, exit code 2 and nothing written.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSiteError, USAGE_CODES } from '../../src/errors.js'
import { initProject } from '../../src/init/init.js'
import { REPO_ROOT } from './build-helpers.js'
import { runCommand, runSite } from './cli-helpers.js'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-init-'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** Every file under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
}

/** The SiteError `promise` rejects with. */
async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!isSiteError(error)) throw new Error(`expected a SiteError, got ${String(error)}`)
  return error
}

describe('site init', () => {
  // Ctrl-C or SIGTERM while the files were written left half a project, which the next `site init` refused as not empty.
  it('writes nothing once stopped, and leaves no folder it created', async () => {
    const dir = join(root, 'stopped')
    await expect(initProject({ dir, signal: AbortSignal.abort('SIGINT') })).rejects.toBe('SIGINT')
    await expect(stat(dir)).rejects.toThrow('ENOENT')
  })

  it('scaffolds the demo templates, config and public files, a package depending on the engine, README, .gitignore and workflow', async () => {
    const dir = join(root, 'Acme Site')
    const result = await initProject({ dir })
    expect(result.dir).toBe(dir)
    const files = await tree(dir)
    expect(files).toEqual(result.files)
    for (const folder of ['templates', 'config', 'public']) {
      const demo = await tree(join(REPO_ROOT, folder))
      expect(files.filter((f) => f.startsWith(`${folder}/`))).toEqual(demo.map((f) => `${folder}/${f}`))
    }
    expect(await readFile(join(dir, 'templates/Header.tsx'), 'utf8')).toBe(
      await readFile(join(REPO_ROOT, 'templates/Header.tsx'), 'utf8'),
    )
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))
    const engine = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8'))
    expect(pkg.name).toBe('acme-site')
    expect(pkg.private).toBe(true)
    expect(pkg.dependencies).toEqual({ [engine.name]: `^${engine.version}` })
    expect(pkg.engines).toEqual(engine.engines)
    expect(pkg.scripts).toMatchObject({
      dev: 'site preview',
      build: 'site build',
      serve: 'site serve',
      publish: 'site publish',
    })
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toMatch(/^node_modules\/$[\s\S]*^\.output\/$/m)
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toMatch(/^# acme-site\n[\s\S]*## Point it at your TYPO3/)
    expect(await readFile(join(dir, '.github/workflows/publish.yml'), 'utf8')).toBe(
      await readFile(join(REPO_ROOT, 'scaffold/publish.yml'), 'utf8'),
    )
  })

  it('names the package after the folder with its accents dropped, not its accented letters', async () => {
    const dir = join(root, 'Café Zürich')
    await initProject({ dir })
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).name).toBe('cafe-zurich')
  })

  it('writes the content API given with --api into api.baseUrl', async () => {
    const dir = join(root, 'with-api')
    await initProject({ dir, apiUrl: 'https://cms.example.com/' })
    const config = await readFile(join(dir, 'config/site.config.ts'), 'utf8')
    expect(config).toContain("baseUrl: 'https://cms.example.com',")
    expect(config).not.toContain('127.0.0.1:4010')
  })

  it('refuses an API URL with a fragment, which would swallow every request path, and writes nothing', async () => {
    const dir = join(root, 'with-fragment-api')
    const error = await rejection(initProject({ dir, apiUrl: 'https://cms.example.com/#top' }))
    expect(error.message).toBe('--api must not end in a fragment (#top): request paths are appended to it')
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('refuses an API URL with a user or password, which the config would keep in the repository, and writes nothing', async () => {
    const dir = join(root, 'with-credentials-api')
    const error = await rejection(initProject({ dir, apiUrl: 'https://editor:s3cret@cms.example.com' }))
    expect(error.message).toBe(
      "--api must not hold a user or password: config/site.config.ts is committed with the project; give the API's credentials from the environment (api.headers, see the configuration docs)",
    )
    expect(error.message).not.toContain('s3cret')
    const other = await rejection(initProject({ dir, apiUrl: 'ftp://editor:s3cret@cms.example.com' }))
    expect(other.message).toBe(error.message)
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('writes an API URL with a quote in it as a string that reads back as that URL', async () => {
    const dir = join(root, 'with-quoted-api')
    const url = "https://cms.example.com/it's/"
    await initProject({ dir, apiUrl: url })
    const config = await readFile(join(dir, 'config/site.config.ts'), 'utf8')
    const literal = /baseUrl: ('(?:[^'\\]|\\.)*'),\n/.exec(config.slice(config.indexOf('api: {')))?.[1]
    expect(literal).toBeDefined()
    expect(new Function(`return ${literal}`)()).toBe("https://cms.example.com/it's")
  })

  it('takes a folder that holds only .git, and a non-empty one with --force (keeping its other files)', async () => {
    const fresh = join(root, 'git-only')
    await mkdir(join(fresh, '.git'), { recursive: true })
    await initProject({ dir: fresh })
    expect(await tree(fresh)).toContain('package.json')

    const used = join(root, 'used')
    await mkdir(used)
    await writeFile(join(used, 'notes.txt'), 'mine')
    await writeFile(join(used, 'README.md'), 'old')
    await initProject({ dir: used, force: true })
    expect(await readFile(join(used, 'notes.txt'), 'utf8')).toBe('mine')
    expect(await readFile(join(used, 'README.md'), 'utf8')).toMatch(/^# used\n/)
  })

  it('refuses a non-empty folder, a file and a path below a file: exit code 2, the path named, nothing written', async () => {
    const full = join(root, 'full')
    await mkdir(full)
    await writeFile(join(full, 'index.html'), 'x')
    const notEmpty = await rejection(initProject({ dir: full }))
    expect(notEmpty.code).toBe('INIT_DIR_NOT_EMPTY')
    expect(notEmpty.message).toBe(`Refusing to create a site in ${full}: the folder is not empty (index.html)`)
    expect(await tree(full)).toEqual(['index.html'])

    const file = join(root, 'a-file')
    await writeFile(file, 'keep')
    for (const dir of [file, join(file, 'below')]) {
      const error = await rejection(initProject({ dir }))
      expect(error.code).toBe('INIT_NOT_A_DIRECTORY')
      expect(error.message).toBe(`Cannot create a site in ${file}: it is a file, not a folder`)
      expect(await readFile(file, 'utf8')).toBe('keep')
    }
    for (const code of ['INIT_DIR_NOT_EMPTY', 'INIT_NOT_A_DIRECTORY', 'INIT_NOT_WRITABLE'] as const)
      expect(USAGE_CODES.has(code)).toBe(true)
  })

  it('removes what it wrote when a write fails half-way', async () => {
    // With --force, a file named `public` where the demo has a folder: public/favicon.ico cannot be written.
    const dir = join(root, 'half')
    await mkdir(dir)
    await writeFile(join(dir, 'public'), 'a file')
    const error = await rejection(initProject({ dir, force: true }))
    expect(error.code).toBe('INIT_WRITE_FAILED')
    expect(error.message).toMatch(
      new RegExp(`^Writing ${join(dir, 'public')}/\\S+ failed: .*; nothing was left behind$`),
    )
    expect(await tree(dir)).toEqual(['public'])
  })

  it('refuses a folder it may not write to, before writing anything', async (ctx) => {
    // Tests run as root, who ignores permission bits: an immutable parent (chattr +i) stops root too.
    const parent = join(root, 'locked')
    await mkdir(parent)
    const asRoot = process.getuid?.() === 0
    const lock = asRoot ? spawnSync('chattr', ['+i', parent], { encoding: 'utf8' }) : undefined
    if (asRoot && lock?.status !== 0)
      ctx.skip(
        `running as root without chattr +i on this file system (${lock?.stderr || lock?.error?.message}): no way to make a folder root may not write to`,
      )
    if (!asRoot) await chmod(parent, 0o555)
    try {
      const dir = join(parent, 'site')
      const error = await rejection(initProject({ dir }))
      expect(error.code).toBe('INIT_NOT_WRITABLE')
      expect(error.message).toMatch(
        new RegExp(`^Cannot create a site in ${parent}: no permission to write there \\((EACCES|EPERM)\\)$`),
      )
      expect(await readdir(parent)).toEqual([])
    } finally {
      if (asRoot) spawnSync('chattr', ['-i', parent])
      else await chmod(parent, 0o755)
    }
  })
})

describe('site init on the command line', () => {
  it('exits 2 naming the path for a non-empty folder and for a file, and asks nothing off a terminal', async () => {
    const full = join(root, 'cli-full')
    await mkdir(full)
    await writeFile(join(full, 'keep.txt'), 'x')
    const notEmpty = await runSite(['init', full])
    expect(notEmpty.code).toBe(2)
    expect(notEmpty.stderr).toContain(`Refusing to create a site in ${full}: the folder is not empty (keep.txt)`)
    expect(notEmpty.stderr).toContain('--force')
    expect(notEmpty.stdout).toBe('')

    const file = join(root, 'cli-file')
    await writeFile(file, 'x')
    const onFile = await runSite(['init', file])
    expect(onFile.code).toBe(2)
    expect(onFile.stderr).toContain(`Cannot create a site in ${file}: it is a file, not a folder`)

    const badApi = await runSite(['init', join(root, 'cli-bad-api'), '--api', 'javascript:alert(1)'])
    expect(badApi.code).toBe(2)
    expect(badApi.stderr).toContain('--api must be an http or https URL, got "javascript:alert(1)"')
    await expect(stat(join(root, 'cli-bad-api'))).rejects.toThrow(/ENOENT/)
  })

  it('creates the project and says what to run next; --help describes it', async () => {
    const dir = join(root, 'cli-new')
    const run = await runSite(['init', dir])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`Created a site in ${dir}`)
    expect(run.stdout).toContain('npm install')
    const files = await tree(dir)
    expect(files).toContain('.github/workflows/publish.yml')
    // The summary names every file and folder it wrote at the top (tsconfig.json included).
    const named = /\(\d+ files: ([^)]*)\)/.exec(run.stdout)![1]!.split(', ')
    const written = [
      ...new Set(
        files.map((file) => (file.includes('/') && !file.startsWith('.github/') ? `${file.split('/')[0]}/` : file)),
      ),
    ]
    expect(named.sort()).toEqual(written.sort())

    // The `cd` it suggests works as typed into a shell, for a folder whose name has a space or a quote.
    const spaced = await runSite(['init', "Acme's New Site"], { cwd: root })
    expect(spaced.code, spaced.stderr).toBe(0)
    const cd = /^ {2}(cd .*)$/m.exec(spaced.stdout)?.[1]
    expect(cd, spaced.stdout).toBeDefined()
    const shell = await runCommand('sh', ['-c', `${cd} && pwd`], { cwd: root })
    expect(shell.stdout.trim(), shell.stderr).toBe(join(root, "Acme's New Site"))

    // ...and for one whose name starts with a dash, which `cd` would otherwise take for its options.
    const dashed = await runSite(['init', '--', '-acme site'], { cwd: root })
    expect(dashed.code, dashed.stderr).toBe(0)
    const cdDashed = /^ {2}(cd .*)$/m.exec(dashed.stdout)?.[1]
    const dashedShell = await runCommand('sh', ['-c', `${cdDashed} && pwd`], { cwd: root })
    expect(dashedShell.stdout.trim(), dashedShell.stderr).toBe(join(root, '-acme site'))

    const help = await runSite(['init', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/Usage: site init \[options\] \[dir\]/)
    expect(help.stdout).toContain('--force')
    expect(help.stdout).toContain('--api <url>')
  })
})

/**
 * `site init DIR` on a pseudo-terminal (util-linux's `script`), as a person's shell runs it: each of `answers` typed
 * at the prompt's next showing.
 */
async function initOnTerminal(dir: string, ...answers: string[]) {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO_ROOT, 'bin/site.js'))} init ${JSON.stringify(dir)}`
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, CI: 'true' } })
  let output = ''
  let answered = 0
  child.stdout.on('data', (chunk) => {
    output += chunk
    const asked = output.split('Content API of your TYPO3').length - 1
    if (asked > answered && answered < answers.length) child.stdin.write(answers[answered++]!)
  })
  const code = await new Promise((done) => child.on('close', done))
  expect(answered, output).toBe(answers.length)
  return { code, output }
}

/** util-linux's `script` (Debian's bsdutils) gives the command a pseudo-terminal; a machine without it skips these. */
const hasScript = spawnSync('script', ['--version']).status === 0

describe.skipIf(!hasScript)('site init on a terminal', () => {
  it('asks for the content API and writes the answer to api.baseUrl', async () => {
    const dir = join(root, 'on-a-terminal')
    const { code, output } = await initOnTerminal(dir, 'https://cms.example.org/\n')
    expect(code, output).toBe(0)
    expect(output).toContain(`Created a site in ${dir}`)
    expect(await readFile(join(dir, 'config/site.config.ts'), 'utf8')).toContain("baseUrl: 'https://cms.example.org',")
  })

  it('asks again after an answer that is no http(s) URL, naming the answer, not a flag', async () => {
    const dir = join(root, 'answered-twice')
    const { code, output } = await initOnTerminal(dir, 'ftp://cms.example.org\n', 'https://cms.example.org\n')
    expect(code, output).toBe(0)
    expect(output).toContain('The answer must be an http or https URL, got "ftp://cms.example.org"')
    expect(output).not.toContain('--api')
    expect(await readFile(join(dir, 'config/site.config.ts'), 'utf8')).toContain("baseUrl: 'https://cms.example.org',")
  })

  it.each([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D', '\u0004'],
  ])('leaves the prompt on %s: exit code 130, nothing written', async (_key, keys) => {
    const dir = join(root, `cancelled-${keys.charCodeAt(0)}`)
    const { code, output } = await initOnTerminal(dir, keys)
    expect(code, output).toBe(130)
    expect(output).toContain('Cancelled: no site was created')
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
