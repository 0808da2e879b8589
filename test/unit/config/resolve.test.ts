import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../../src/config/load.js'
import { selectSite, toBareHostname } from '../../../src/config/resolve.js'
import { validateFlags, validateUserConfig } from '../../../src/config/validate.js'
import { SiteError } from '../../../src/errors.js'

let root: string
const write = async (name: string, text: string) => {
  await mkdir(join(root, 'config'), { recursive: true })
  await writeFile(join(root, name), text)
  return name
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-config-'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('resolveConfig', () => {
  it('loads a TypeScript config and fills defaults', async () => {
    await write(
      'config/site.config.ts',
      `import { defineConfig } from 'typo3-headless-site/config'\nconst port: number = 4010\nexport default defineConfig({ api: { baseUrl: 'http://127.0.0.1:' + port + '/' } })\n`,
    )
    const config = await resolveConfig({ root })
    expect(config.configFile).toBe(join(root, 'config/site.config.ts'))
    const [site] = config.sites
    expect(site!.api.baseUrl).toBe('http://127.0.0.1:4010')
    expect(site!.api.endpoints).toEqual({ initialData: '/?type=834', initialDataFallback: '/?type=834' })
    expect(site!.i18n).toEqual({ default: 'en', locales: ['en', 'pl', 'de'] })
    expect(site!.preview.queryParam).toBe('pce')
    expect(site!.api.allowQuery).toBe(true)
    expect(site!.api).toMatchObject({ timeoutMs: 15_000, maxResponseBytes: 32 * 1024 * 1024 })
    expect(site!.build).toEqual({
      outDir: '.output/public',
      concurrency: 4,
      maxPages: 200_000,
      maxPageBytes: 16 * 1024 * 1024,
      renderTimeoutMs: 60_000,
      redirectPages: false,
      keepBuilds: 3,
      renderThreads: 'auto',
    })
  })

  it('loads .json and .mjs files, and --api overrides api.baseUrl', async () => {
    const json = await write('config/a.json', JSON.stringify({ api: { baseUrl: 'http://127.0.0.1:1' } }))
    const fromJson = await resolveConfig({ root, configFile: json, apiBaseUrl: 'https://staging.example.com/' })
    expect(fromJson.sites[0]!.api.baseUrl).toBe('https://staging.example.com')
    const mjs = await write(
      'config/b.mjs',
      `export default { api: { baseUrl: 'http://127.0.0.1:2' }, build: { concurrency: 8 } }`,
    )
    expect((await resolveConfig({ root, configFile: mjs })).sites[0]!.build.concurrency).toBe(8)
  })

  it('gives each file of a config its own import.meta, not the cache folder the bundle runs from', async () => {
    // A team kept its API origin in a JSON file beside the config and read it with import.meta.url: the
    // build failed with ENOENT naming .site/config/hosts.json, a folder the team never made.
    await write('config/hosts.json', JSON.stringify({ api: 'http://127.0.0.1:5' }))
    await mkdir(join(root, 'config/lib'), { recursive: true })
    await write(
      'config/lib/where.ts',
      `export const where: string = import.meta.filename + ' ' + import.meta.dirname + ' ' + import.meta.url\n`,
    )
    const file = await write(
      'config/meta.ts',
      [
        `import { readFileSync } from 'node:fs'`,
        `import { where } from './lib/where.js'`,
        `const hosts = JSON.parse(readFileSync(new URL('./hosts.json', import.meta.url), 'utf8'))`,
        `export default { api: { baseUrl: hosts.api, headers: { where, dirname: import.meta.dirname } } }`,
      ].join('\n'),
    )
    const [site] = (await resolveConfig({ root, configFile: file })).sites
    expect(site!.api.baseUrl).toBe('http://127.0.0.1:5')
    const helper = join(root, 'config/lib/where.ts')
    expect(site!.api.headers).toEqual({
      where: `${helper} ${join(root, 'config/lib')} ${pathToFileURL(helper).href}`,
      dirname: join(root, 'config'),
    })
  })

  it('resolves --out and --concurrency into site.build, checked with the options’ own rules', async () => {
    const mjs = await write(
      'config/c.mjs',
      `export default { api: { baseUrl: 'http://127.0.0.1:2' }, build: { concurrency: 8 } }`,
    )
    const config = await resolveConfig({ root, configFile: mjs, outDir: 'dist/site', concurrency: 2 })
    expect(config.sites[0]!.build).toMatchObject({
      outDir: 'dist/site',
      concurrency: 2,
      redirectPages: false,
      keepBuilds: 3,
    })
    const error = (await resolveConfig({ root, configFile: mjs, concurrency: 0, apiBaseUrl: 'ftp://x' }).catch(
      (e: unknown) => e,
    )) as SiteError
    expect(error.code).toBe('CONFIG_INVALID')
    expect(error.message).toContain('Invalid configuration in the command line:')
    expect(error.message).toContain('--concurrency: expected a whole number from 1 to 64')
    expect(error.message).toContain('--api: expected an http(s) URL, got protocol ftp:')
    expect(
      validateUserConfig({ build: { concurrency: 65, maxPages: 0, maxPageBytes: 1.5, renderTimeoutMs: 0 } }),
    ).toEqual([
      { path: 'build.concurrency', message: 'expected a whole number from 1 to 64' },
      { path: 'build.maxPages', message: 'expected a whole number greater than 0' },
      { path: 'build.maxPageBytes', message: 'expected a whole number greater than 0' },
      {
        path: 'build.renderTimeoutMs',
        message: 'expected a whole number of milliseconds from 1 to 2147483647 (about 24.8 days)',
      },
    ])
    const limited = await resolveConfig({ root, configFile: mjs, maxPages: 10, maxPageBytes: 5000 })
    expect(limited.sites[0]!.build).toMatchObject({ maxPages: 10, maxPageBytes: 5000 })
  })

  // Pages, redirects and robots.txt are written at the root of the host: a baseUrl with a path
  // made sitemap.xml and the canonical links name URLs under it that the output never serves.
  it('takes an origin as baseUrl, and refuses one with a path, query, fragment or user', () => {
    for (const baseUrl of ['https://www.example.com', 'https://www.example.com/', 'http://127.0.0.1:8181'])
      expect(validateUserConfig({ baseUrl })).toEqual([])
    for (const [baseUrl, got] of [
      ['https://www.example.com/sub/site', 'path /sub/site'],
      ['https://www.example.com/?lang=en', '?lang=en'],
      ['https://www.example.com#top', '#top'],
      ['https://user:secret@www.example.com', 'a user'],
    ])
      expect(validateUserConfig({ sites: [{ hostname: 'a.example', baseUrl }] })).toEqual([
        { path: 'sites[0].baseUrl', message: `expected the site's origin (scheme, host and port only), got ${got}` },
      ])
  })

  // baseUrl is pasted before every path of sitemap.xml, robots.txt and the head links: a host in
  // Unicode put URLs that are no URL (`https://Bücher.Example:443/pl`) in front of crawlers.
  it('writes baseUrl as a URL origin: host in IDNA form and lower case, no default port', async () => {
    const file = await write(
      'config/idn.json',
      JSON.stringify({ baseUrl: 'https://Bücher.Example:443/', api: { baseUrl: 'http://127.0.0.1:1' } }),
    )
    expect((await resolveConfig({ root, configFile: file })).sites[0]!.baseUrl).toBe('https://xn--bcher-kva.example')
    const port = await write(
      'config/port.json',
      JSON.stringify({ baseUrl: 'HTTP://127.0.0.1:8181', api: { baseUrl: 'http://127.0.0.1:1' } }),
    )
    expect((await resolveConfig({ root, configFile: port })).sites[0]!.baseUrl).toBe('http://127.0.0.1:8181')
  })

  it('refuses a timeout or wait a timer cannot hold, which would fire at once and time out every API request', () => {
    expect(validateUserConfig({ api: { timeoutMs: 2 ** 31 - 1 }, publish: { maxWaitMs: 2 ** 31 - 1 } })).toEqual([])
    const message = 'expected a whole number of milliseconds from 1 to 2147483647 (about 24.8 days)'
    expect(
      validateUserConfig({ api: { timeoutMs: 3_000_000_000 }, publish: { quietMs: 2 ** 31, maxWaitMs: 0 } }),
    ).toEqual([
      { path: 'api.timeoutMs', message },
      { path: 'publish.quietMs', message },
      { path: 'publish.maxWaitMs', message },
    ])
  })

  it('refuses a media.limitInputPixels sharp does not take, which would fail every image of the build', () => {
    expect(validateUserConfig({ media: { limitInputPixels: Number.MAX_SAFE_INTEGER } })).toEqual([])
    for (const limitInputPixels of [0, 1.5, 2 ** 53, 1e16, '100'])
      expect(validateUserConfig({ media: { limitInputPixels } }), String(limitInputPixels)).toEqual([
        { path: 'media.limitInputPixels', message: 'expected a whole number of pixels from 1 to 9007199254740991' },
      ])
  })

  it('refuses a content API URL with a fragment, which would swallow every request path', () => {
    expect(validateUserConfig({ api: { baseUrl: 'https://cms.example.com/api?key=1' } })).toEqual([])
    expect(validateUserConfig({ api: { baseUrl: 'https://cms.example.com/#top' } })).toEqual([
      { path: 'api.baseUrl', message: 'expected no fragment (#top): request paths are appended to this URL' },
    ])
    expect(validateFlags({ apiBaseUrl: 'http://127.0.0.1:4010#x' })).toEqual([
      { path: '--api', message: 'expected no fragment (#x): request paths are appended to this URL' },
    ])
  })

  // Every API request carries api.headers: a name with a space or a value with a line break (a token read from a
  // file with its newline) passed the check and failed each request as "Initial Data is unavailable", blaming the API.
  it('refuses api.headers no HTTP request can carry, naming the header', () => {
    expect(validateUserConfig({ api: { headers: { Authorization: 'Bearer a b', 'x-api-key': '' } } })).toEqual([])
    expect(validateUserConfig({ api: { headers: { 'x-token': 'abc\n' } } })).toEqual([
      { path: 'api.headers', message: "header 'x-token': its value holds a line break or another control character" },
    ])
    // a character past Latin-1 (a Polish city's name) is no control character: said as what it is
    expect(validateUserConfig({ api: { headers: { 'x-site': 'Zürich', 'x-city': 'Wrocław' } } })).toEqual([
      {
        path: 'api.headers',
        message:
          "header 'x-city': its value holds a character past Latin-1 (a letter such as ł, a typographic quote, a zero-width space), which no header can carry",
      },
    ])
    expect(validateUserConfig({ api: { headers: { 'x token': '1' } } })).toEqual([
      { path: 'api.headers', message: "header 'x token': not a header name (letters, digits and !#$%&'*+-.^_`|~)" },
    ])
    expect(validateUserConfig({ api: { headers: { 'x-a': 1 } } })).toEqual([
      { path: 'api.headers', message: 'expected an object of header name to string value' },
    ])
  })

  // A site's folder is named by its first hostname: '...' passed as one and put that site's output in the project's
  // public/ folder (`.output/../public`), the files every build copies from.
  it('refuses a hostname without a name in it: only dots, or an empty label', () => {
    expect(validateUserConfig({ sites: [{ hostname: ['www.example.com', 'example.com.', '127.0.0.1'] }] })).toEqual([])
    for (const hostname of ['.', '...', 'a..b', '.example.com'])
      expect(validateUserConfig({ sites: [{ hostname }] }), hostname).toEqual([
        { path: 'sites[0].hostname', message: 'expected a bare host name (no scheme, port or path) or a list of them' },
      ])
  })

  it('checks build.keepBuilds', () => {
    expect(validateUserConfig({ build: { keepBuilds: 5 } })).toEqual([])
    for (const keepBuilds of [0, 101, 2.5, '3'])
      expect(validateUserConfig({ build: { keepBuilds } })).toEqual([
        { path: 'build.keepBuilds', message: 'expected a whole number from 1 to 100' },
      ])
  })

  it('checks build.renderThreads: auto, or 0 (in the build thread) to 4', () => {
    for (const renderThreads of ['auto', 0, 1, 4] as const)
      expect(validateUserConfig({ build: { renderThreads } })).toEqual([])
    for (const renderThreads of [-1, 5, 1.5, '2', 'all'])
      expect(validateUserConfig({ build: { renderThreads } })).toEqual([
        { path: 'build.renderThreads', message: "expected 'auto' or a whole number from 0 to 4" },
      ])
  })

  it('reports every problem at once with its key path', async () => {
    const file = await write(
      'config/bad.json',
      JSON.stringify({
        api: { baseUrl: 'ftp://x', credentials: 'sometimes', allowQuery: 'yes' },
        i18n: { locales: [] },
        colour: 'red',
        sites: [{ hostname: 'https://a.com', colour: 'blue' }],
      }),
    )
    const error = await resolveConfig({ root, configFile: file }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteError)
    expect((error as SiteError).code).toBe('CONFIG_INVALID')
    const message = (error as SiteError).message
    expect(message).toContain(file)
    for (const path of [
      'api.baseUrl',
      'api.credentials',
      'api.allowQuery',
      'i18n.locales',
      'colour',
      'sites[0].hostname',
    ])
      expect(message).toContain(`  - ${path}: `)
    // the keys checked beside the shape are named as known too
    const known = 'baseUrl, api, i18n, features, preview, tracking, build, publish, media'
    expect(message).toContain(`  - colour: unknown option (known: ${known}, sites)`)
    expect(message).toContain(`  - sites[0].colour: unknown option (known: ${known}, hostname)`)
  })

  // The shapes are plain objects: a key named as one of Object's own members found that member
  // instead of no rule, so `hasOwnProperty` crashed the check and `toString` was "[object Undefined]".
  it('calls a key named as a member of Object an unknown option, at any level', () => {
    const config = JSON.parse(
      '{"hasOwnProperty": 1, "constructor": 1, "__proto__": {}, "api": {"toString": 1}, "media": {"valueOf": {}}}',
    ) as unknown
    const known = 'baseUrl, api, i18n, features, preview, tracking, build, publish, media'
    expect(
      validateUserConfig(config).map(({ path, message }) => `${path}: ${message.replace(/ \(known: .*/, '')}`),
    ).toEqual([
      'hasOwnProperty: unknown option',
      'constructor: unknown option',
      '__proto__: unknown option',
      'api.toString: unknown option',
      'media.valueOf: unknown option',
    ])
    expect(validateUserConfig(config)[0]!.message).toBe(`unknown option (known: ${known}, sites)`)
  })

  it('takes locale codes with a region, and refuses a language in capitals', async () => {
    expect(validateUserConfig({ i18n: { default: 'pt-BR', locales: ['en', 'pt-BR', 'de-ch'] } })).toEqual([])
    // texts files, path prefixes and the initial data URLs are named by the language in lower case
    expect(validateUserConfig({ i18n: { default: 'PL', locales: ['en', 'PL'] } })).toEqual([
      {
        path: 'i18n.default',
        message: "expected a locale code such as 'en', 'pl' or 'pt-BR' (its language in lower case)",
      },
      {
        path: 'i18n.locales',
        message:
          "expected a non-empty list of locale codes such as ['en', 'pl', 'pt-BR'] (each language in lower case)",
      },
    ])
  })

  it('refuses a list with an empty slot (two commas in a row), which every() alone would skip', async () => {
    // biome-ignore lint/suspicious/noSparseArray: the typo under test
    const locales = ['en', , 'pl']
    // biome-ignore lint/suspicious/noSparseArray: the typo under test
    const hostname = ['www.example.com', , 'example.com']
    expect(validateUserConfig({ i18n: { locales }, sites: [{ hostname }] }).map(({ path }) => path)).toEqual([
      'i18n.locales',
      'sites[0].hostname',
    ])
  })

  // "expected the config file to export an object" did not say what it found instead: a config written as
  // `export const config = {…}` or as a function (as other tools take it) left its author guessing.
  it('says what a config file exports instead of an object', async () => {
    const named = await write('config/named.mjs', "export const config = { api: { baseUrl: 'http://127.0.0.1:1' } }\n")
    await expect(resolveConfig({ root, configFile: named })).rejects.toThrow(
      '  - (root): expected the config file to export an object, got no default export',
    )
    const fn = await write('config/fn.mjs', "export default () => ({ api: { baseUrl: 'http://127.0.0.1:1' } })\n")
    await expect(resolveConfig({ root, configFile: fn })).rejects.toThrow(/export an object, got a function$/)
    expect(validateUserConfig([])[0]!.message).toMatch(/, got a list$/)
    expect(validateUserConfig(null)[0]!.message).toMatch(/, got null$/)
  })

  // A config's default export may be a promise (secrets read from a vault); one that rejected escaped the loader as
  // a bare message ("vault down"), exit code 1, naming neither the config file nor that the config failed.
  it('names the config file when the promise it exports rejects, as when it throws', async () => {
    const file = await write('config/rejects.mjs', "export default Promise.reject(new Error('vault down'))\n")
    const error = (await resolveConfig({ root, configFile: file }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('CONFIG_INVALID')
    expect(error.message).toBe(
      `Invalid configuration in ${join(root, file)}:\n  - (file): failed to evaluate: vault down`,
    )
    // what a config throws or rejects with need not be an Error (`throw 'vault down'`): said, not a TypeError of ours
    for (const [name, code] of [
      ['throws-text.mjs', "throw 'vault down'\n"],
      ['rejects-text.mjs', "export default Promise.reject('vault down')\n"],
    ] as const) {
      const thrown = await write(`config/${name}`, code)
      const failed = (await resolveConfig({ root, configFile: thrown }).catch((e: unknown) => e)) as SiteError
      expect(failed.code).toBe('CONFIG_INVALID')
      expect(failed.message).toBe(
        `Invalid configuration in ${join(root, thrown)}:\n  - (file): failed to evaluate: vault down`,
      )
    }
    const later = await write(
      'config/later.mjs',
      "export default Promise.resolve({ api: { baseUrl: 'http://127.0.0.1:1' } })\n",
    )
    expect((await resolveConfig({ root, configFile: later })).sites[0]!.api.baseUrl).toBe('http://127.0.0.1:1')
  })

  it('requires api.baseUrl unless --api is given', async () => {
    const file = await write('config/empty.json', '{}')
    await expect(resolveConfig({ root, configFile: file })).rejects.toThrow(/api\.baseUrl: required/)
    await expect(resolveConfig({ root, configFile: file, apiBaseUrl: 'http://127.0.0.1:9' })).resolves.toBeTruthy()
  })

  it('names a missing config file and a syntax error', async () => {
    await expect(resolveConfig({ root, configFile: 'config/missing.ts' })).rejects.toThrow(
      `Config file not found: ${join(root, 'config/missing.ts')}`,
    )
    // run in a folder of a project, it names the project's folder: --config alone would not find templates/
    const sub = join(root, 'templates', 'content')
    await mkdir(sub, { recursive: true })
    await write('config/site.config.mjs', 'export default {}\n')
    await expect(resolveConfig({ root: sub })).rejects.toThrow(
      `No config file found in ${sub} (looked for config/site.config.ts, config/site.config.mjs, config/site.config.js, config/site.config.json); run the command in the project's folder, ${root}`,
    )
    const file = await write('config/broken.ts', 'export default {{')
    await expect(resolveConfig({ root, configFile: file })).rejects.toThrow(/broken\.ts:\n {2}- \(file\): line 1/)
  })

  it('names every import of the config that does not resolve, not only the first', async () => {
    const file = await write(
      'config/imports.mjs',
      "import a from './one.mjs'\nimport b from './two.mjs'\nexport default {}\n",
    )
    await expect(resolveConfig({ root, configFile: file })).rejects.toThrow(
      `imports.mjs:\n  - (file): line 1: Could not resolve "./one.mjs"\n  - (file): line 2: Could not resolve "./two.mjs"`,
    )
    // a line of a file the config imports names that file: the config's own line 2 would mislead
    await write('config/helper.mjs', "export const x = 1\nimport c from './gone.mjs'\n")
    const nested = await write('config/nested.mjs', "import { x } from './helper.mjs'\nexport default { x }\n")
    await expect(resolveConfig({ root, configFile: nested })).rejects.toThrow(
      `nested.mjs:\n  - (file): ${join('config', 'helper.mjs')} line 2: Could not resolve "./gone.mjs"`,
    )
  })

  it('names the config file, not its bundle in .site/, for a package it imports that is not installed', async () => {
    // packages are imported when the config runs, from its bundle: Node names the file it ran
    const pkg = await write('config/package.mjs', "import a from 'no-such-package-x'\nexport default { a }\n")
    const error = await resolveConfig({ root, configFile: pkg }).catch((e: Error) => e)
    expect((error as Error).message).toContain(
      `Cannot find package 'no-such-package-x' imported from ${join(root, pkg)}`,
    )
    expect((error as Error).message).not.toContain('.site')
  })
})

describe('sites', () => {
  const multi = {
    api: { baseUrl: 'http://127.0.0.1:1', headers: { 'x-a': '1' } },
    i18n: { locales: ['en', 'pl'] },
    sites: [
      { hostname: ['www.example.com', 'example.com'], baseUrl: 'https://www.example.com' },
      { hostname: 'www.example.de', api: { baseUrl: 'http://127.0.0.1:2' }, i18n: { default: 'de', locales: ['de'] } },
    ],
  }

  it('merges each site over the top level, locales as a union', async () => {
    const file = await write('config/multi.json', JSON.stringify(multi))
    const { sites } = await resolveConfig({ root, configFile: file })
    expect(sites[0]!.api.headers).toEqual({ 'x-a': '1' })
    expect(sites[0]!.baseUrl).toBe('https://www.example.com')
    expect(sites[1]!.api.baseUrl).toBe('http://127.0.0.1:2')
    expect(sites[1]!.i18n).toEqual({ default: 'de', locales: ['en', 'pl', 'de'] })
  })

  it('gives each of several sites an output folder of its own, unless the file names one', async () => {
    const file = await write('config/multi.json', JSON.stringify(multi))
    const { sites } = await resolveConfig({ root, configFile: file })
    expect(sites.map((s) => s.build.outDir)).toEqual([
      '.output/www.example.com/public',
      '.output/www.example.de/public',
    ])
    // --out is one run's folder (with --site): it applies as given.
    const once = await resolveConfig({ root, configFile: file, outDir: 'out' })
    expect(once.sites.map((s) => s.build.outDir)).toEqual(['out', 'out'])
    // One site keeps the plain default.
    const single = await write('config/single.json', JSON.stringify({ ...multi, sites: [multi.sites[0]] }))
    expect((await resolveConfig({ root, configFile: single })).sites[0]!.build.outDir).toBe('.output/public')
  })

  it('refuses two sites that would build into the same folder, naming the key', async () => {
    const shared = { ...multi, build: { outDir: 'dist' } }
    const file = await write('config/shared.json', JSON.stringify(shared))
    await expect(resolveConfig({ root, configFile: file })).rejects.toThrow(
      "  - sites[1].build.outDir: 'dist' (the top-level build.outDir) is also the output folder of sites[0] (www.example.com): each site needs a folder of its own",
    )
    const own = {
      ...shared,
      sites: [multi.sites[0], { ...multi.sites[1], build: { outDir: 'dist-de/' } }],
    }
    const ok = await write('config/own.json', JSON.stringify(own))
    expect((await resolveConfig({ root, configFile: ok })).sites.map((s) => s.build.outDir)).toEqual([
      'dist',
      'dist-de/',
    ])
  })

  // a top-level baseUrl no site set its own over: both sites wrote their canonical links and sitemap at one origin
  it('refuses two sites with one baseUrl, naming the key and where it came from', async () => {
    const top = { ...multi, baseUrl: 'https://www.example.com' }
    const inherited = await write('config/one-origin.json', JSON.stringify(top))
    await expect(resolveConfig({ root, configFile: inherited })).rejects.toThrow(
      "  - sites[1].baseUrl: 'https://www.example.com' (the top-level baseUrl) is also the baseUrl of sites[0] (www.example.com): each site needs an origin of its own",
    )
    const own = { ...multi, sites: [multi.sites[0], { ...multi.sites[1], baseUrl: 'https://www.example.com/' }] }
    const written = await write('config/same-origin.json', JSON.stringify(own))
    await expect(resolveConfig({ root, configFile: written })).rejects.toThrow(
      "  - sites[1].baseUrl: 'https://www.example.com' is also the baseUrl of sites[0] (www.example.com): each site needs an origin of its own",
    )
    const apart = { ...top, sites: [multi.sites[0], { ...multi.sites[1], baseUrl: 'https://www.example.de' }] }
    const ok = await write('config/two-origins.json', JSON.stringify(apart))
    expect((await resolveConfig({ root, configFile: ok })).sites.map((s) => s.baseUrl)).toEqual([
      'https://www.example.com',
      'https://www.example.de',
    ])
  })

  it('refuses a site output folder inside another site’s, either way round: a build replaces its whole folder', async () => {
    const nested = (first: string, second: string) => ({
      ...multi,
      sites: [
        { ...multi.sites[0], build: { outDir: first } },
        { ...multi.sites[1], build: { outDir: second } },
      ],
    })
    const inside = await write('config/inside.json', JSON.stringify(nested('./dist', 'dist/de/')))
    await expect(resolveConfig({ root, configFile: inside })).rejects.toThrow(
      "  - sites[1].build.outDir: 'dist/de/' is inside the output folder of sites[0] (www.example.com): each site needs a folder of its own",
    )
    // a folder of its own under .output (the default of the other site) is no better
    const holds = await write(
      'config/holds.json',
      JSON.stringify({ ...multi, sites: [multi.sites[0], { ...multi.sites[1], build: { outDir: '.output' } }] }),
    )
    await expect(resolveConfig({ root, configFile: holds })).rejects.toThrow(
      "  - sites[1].build.outDir: '.output' holds the output folder of sites[0] (www.example.com): each site needs a folder of its own",
    )
    // a site the file gives no folder is told so: its key is not in the file, its default is the clash
    const underOther = await write(
      'config/under-other.json',
      JSON.stringify({ ...multi, sites: [{ ...multi.sites[0], build: { outDir: '.output' } }, multi.sites[1]] }),
    )
    await expect(resolveConfig({ root, configFile: underOther })).rejects.toThrow(
      "  - sites[1].build.outDir: '.output/www.example.de/public' (the default: the file sets none) is inside the output folder of sites[0] (www.example.com): each site needs a folder of its own",
    )
    // a folder named absolute is the same folder as its name relative to the project root
    const absolute = await write('config/absolute.json', JSON.stringify(nested(join(root, 'dist'), 'dist/')))
    await expect(resolveConfig({ root, configFile: absolute })).rejects.toThrow(
      "  - sites[1].build.outDir: 'dist/' is also the output folder of sites[0] (www.example.com): each site needs a folder of its own",
    )
    const absoluteInside = await write('config/abs-inside.json', JSON.stringify(nested('dist', join(root, 'dist/de'))))
    await expect(resolveConfig({ root, configFile: absoluteInside })).rejects.toThrow(
      'is inside the output folder of sites[0]',
    )
    const beside = await write('config/beside.json', JSON.stringify(nested('dist/com', 'dist/de')))
    expect((await resolveConfig({ root, configFile: beside })).sites.map((s) => s.build.outDir)).toEqual([
      'dist/com',
      'dist/de',
    ])
  })

  it('refuses a host name that two sites give, in any case: a request for it could reach one of them only', async () => {
    const twice = {
      ...multi,
      sites: [multi.sites[0], { ...multi.sites[1], hostname: ['www.example.de', 'Example.com'] }],
    }
    const file = await write('config/twice.json', JSON.stringify(twice))
    await expect(resolveConfig({ root, configFile: file })).rejects.toThrow(
      "  - sites[1].hostname: 'Example.com' is also a hostname of sites[0]: a request for it would only ever reach one of them",
    )
    // one site may list a name twice: it still names that site only
    const again = { ...multi, sites: [{ ...multi.sites[0], hostname: ['example.com', 'EXAMPLE.com'] }, multi.sites[1]] }
    const ok = await write('config/again.json', JSON.stringify(again))
    expect((await resolveConfig({ root, configFile: ok })).sites).toHaveLength(2)
  })

  it('selects by host, with the unknown-host message for an unknown host', async () => {
    const file = await write('config/multi.json', JSON.stringify(multi))
    const { sites } = await resolveConfig({ root, configFile: file })
    expect(selectSite(sites, 'https://example.com:443/x').hostnames).toContain('example.com')
    expect(selectSite(sites, 'WWW.EXAMPLE.DE').hostnames).toEqual(['www.example.de'])
    expect(() => selectSite(sites, 'evil.test')).toThrow('Hostname: evil.test not found in sites configuration')
    expect(() => selectSite(sites)).toThrow(
      'Several sites are configured; choose one with --site HOST (www.example.com, example.com, www.example.de)',
    )
  })

  it('refuses a host that is not the one site of a config without sites: only its baseUrl host selects it', async () => {
    const file = await write(
      'config/one.json',
      JSON.stringify({ baseUrl: 'https://www.example.com/', api: { baseUrl: 'http://127.0.0.1:9' } }),
    )
    const { sites } = await resolveConfig({ root, configFile: file })
    expect(selectSite(sites)).toBe(sites[0])
    expect(selectSite(sites, 'WWW.example.com:443')).toBe(sites[0])
    expect(() => selectSite(sites, 'shop.example.com')).toThrow(
      'Hostname: shop.example.com not found in sites configuration',
    )
    const bare = await write('config/bare.json', JSON.stringify({ api: { baseUrl: 'http://127.0.0.1:9' } }))
    const { sites: unnamed } = await resolveConfig({ root, configFile: bare })
    expect(selectSite(unnamed)).toBe(unnamed[0])
    expect(() => selectSite(unnamed, 'www.example.com')).toThrow(
      expect.objectContaining({ code: 'HOSTNAME_NOT_FOUND', hint: undefined }),
    )
  })

  it('strips scheme, port and path from hosts', () => {
    expect(toBareHostname('https://a.example.com:8080/x?y')).toBe('a.example.com')
    expect(toBareHostname('127.0.0.1:3000')).toBe('127.0.0.1')
    expect(toBareHostname('[::1]:3000')).toBe('::1')
    // the fully-qualified name (the root's dot, as a browser sends it when typed so) is the same host
    expect(toBareHostname('WWW.Example.DE.:8080')).toBe('www.example.de')
    expect(toBareHostname('localhost..')).toBe('localhost.')
  })

  it('takes a host name with the root’s trailing dot for the name without it, in --site, Host and the file', async () => {
    const file = await write('config/multi.json', JSON.stringify(multi))
    const { sites } = await resolveConfig({ root, configFile: file })
    expect(selectSite(sites, 'www.example.de.').hostnames).toEqual(['www.example.de'])
    const dotted = { ...multi, sites: [multi.sites[0], { ...multi.sites[1], hostname: 'WWW.example.DE.' }] }
    const written = await write('config/dotted.json', JSON.stringify(dotted))
    const resolved = (await resolveConfig({ root, configFile: written })).sites
    expect(selectSite(resolved, 'www.example.de').hostnames).toEqual(['www.example.de'])
    expect(resolved[1]!.build.outDir).toBe('.output/www.example.de/public')
    const twice = { ...multi, sites: [multi.sites[0], { ...multi.sites[1], hostname: 'example.com.' }] }
    const clash = await write('config/twice-dot.json', JSON.stringify(twice))
    await expect(resolveConfig({ root, configFile: clash })).rejects.toThrow(
      "  - sites[1].hostname: 'example.com.' is also a hostname of sites[0]: a request for it would only ever reach one of them",
    )
  })
})

describe('validateUserConfig', () => {
  it('accepts the full option set', () => {
    expect(
      validateUserConfig({
        baseUrl: 'https://www.example.com',
        api: {
          baseUrl: 'https://api.example.com',
          headers: { authorization: 'x' },
          credentials: 'include',
          allowQuery: ['cHash'],
          proxyHeaders: ['set-cookie'],
          proxyReqHeaders: false,
          endpoints: { initialData: '?type=834', initialDataFallback: '/?type=834' },
          timeoutMs: 1000,
          maxResponseBytes: 1_048_576,
        },
        i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
        features: { contentPreview: false, initInitialData: true, i18nMiddleware: true, debug: false },
        preview: { queryParam: 'pce' },
        tracking: { gtmId: 'GTM-ABC123', consentHost: 'https://consent.example.com' },
        build: { outDir: 'out', concurrency: 2 },
      }),
    ).toEqual([])
  })
  it('takes host names and IP addresses in preview.allowedHosts, as a Host header names them', async () => {
    const allowedHosts = ['preview.example.com', '.staging.example', '10.0.0.7', '[FD00:0:0::5]', '2001:db8::1']
    expect(validateUserConfig({ preview: { allowedHosts } })).toEqual([])
    for (const host of ['https://preview.example.com', 'preview.example.com:3000', '[fd00::5]:3000', 'a/b', '[x]'])
      expect(validateUserConfig({ preview: { allowedHosts: [host] } }), host).toEqual([
        {
          path: 'preview.allowedHosts',
          message:
            "expected a list of bare host names or IP addresses (no scheme, port or path), such as ['preview.example.com']",
        },
      ])
    const file = await write(
      'config/hosts.json',
      JSON.stringify({ api: { baseUrl: 'http://127.0.0.1:1' }, preview: { allowedHosts } }),
    )
    const config = await resolveConfig({ root, configFile: file })
    expect(config.sites[0]!.preview.allowedHosts).toEqual([
      'preview.example.com',
      '.staging.example',
      '10.0.0.7',
      'fd00::5',
      '2001:db8::1',
    ])
  })

  it('refuses upper-case proxied header names and a non-object', () => {
    expect(validateUserConfig({ api: { proxyHeaders: ['Set-Cookie'] } })).toEqual([
      { path: 'api.proxyHeaders', message: 'expected false or a list of lower-case header names' },
    ])
    expect(validateUserConfig(3)).toHaveLength(1)
  })
  it('refuses an api.maxResponseBytes that is not a whole number of bytes above 0', () => {
    for (const value of [0, -1, 1.5, '32MB'])
      expect(validateUserConfig({ api: { maxResponseBytes: value } }), String(value)).toEqual([
        { path: 'api.maxResponseBytes', message: 'expected a whole number greater than 0' },
      ])
  })
})
