/**
 * Shared set-up of the hostile-content tests: a temporary copy of
 * test/fixtures/hostile-site (plus a generated 5 MB page and optional variants),
 * the demo API serving it, a build into an output folder inside its own
 * temporary parent, and a small HTML tokenizer that finds markup a browser
 * would execute.
 */
import { cp, lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BuildResult, build } from '../../src/build/build.js'
import { resolveConfig } from '../../src/config/load.js'
import { selectSite } from '../../src/config/resolve.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { loaderModulesOf } from '../shared/client-modules.js'

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const HOSTILE_FIXTURE = fileURLToPath(new URL('../fixtures/hostile-site/', import.meta.url))
/** The site's public origin in the test config: absolute links on it are same-site links. */
const HOSTILE_BASE_URL = 'https://www.hostile.example'
/** A file name the corpus tries to reach with `..`, encoded slashes and NUL: it must never appear. */
export const SENTINEL = 'hostile-escape-sentinel'
export const BIG_PAGE_PATH = '/big-page'
/** The generated page is at least this large (JSON as the API sends it). */
export const BIG_PAGE_MIN_BYTES = 5 * 1024 * 1024

/** Variant pages in test/fixtures/hostile-site/variants, built separately because they break the build. */
export const VARIANTS = { loneSurrogate: { file: 'lone-surrogate.json', path: '/variant/lone-surrogate' } } as const
export type VariantName = keyof typeof VARIANTS

type Json = Record<string, unknown>

const readJson = async (file: string): Promise<Json> => JSON.parse(await readFile(file, 'utf8')) as Json

/** Payloads sprinkled into the generated page; each sets `window.__xss` or opens a dialog if it ever runs. */
const BIG_PAGE_PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<a href="javascript:window.__xss=1" onclick="window.__xss=1">x</a>',
  '</script><script>alert(1)</script>',
]

/** A page of about 5 MB: many text elements, some hostile, and a menu repeating the same few links. */
function createBigPage(): Json {
  const paragraph = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(18)}</p>`
  const elements: Json[] = []
  let bytes = 0
  for (let i = 0; bytes < BIG_PAGE_MIN_BYTES * 1.05; i++) {
    const payload = i % 100 === 0 ? BIG_PAGE_PAYLOADS[(i / 100) % BIG_PAGE_PAYLOADS.length]! : ''
    const element = {
      id: 100_000 + i,
      type: 'text',
      colPos: 0,
      categories: '',
      appearance: { layout: 'default', frameClass: 'default', spaceBefore: '', spaceAfter: '' },
      content: {
        header: `Section ${i} ${payload}`,
        subheader: '',
        headerLayout: 2,
        headerPosition: '',
        headerLink: '',
        bodytext: `${paragraph}${payload}`,
      },
    }
    bytes += JSON.stringify(element).length
    elements.push(element)
  }
  const menu = Array.from({ length: 500 }, (_, i) => ({
    title: `Duplicate link ${i}`,
    link: i % 2 ? '/contact' : '/about-us/',
    target: '',
    active: 0,
    current: 0,
    spacer: 0,
    hasSubpages: 0,
  }))
  elements.push({
    id: 99_999,
    type: 'menu_pages',
    colPos: 0,
    categories: '',
    appearance: {},
    content: { header: 'Many duplicate links', menu },
  })
  return {
    id: 9000,
    type: 'Standard',
    slug: BIG_PAGE_PATH,
    media: [],
    meta: {
      title: 'A page of five megabytes',
      description: BIG_PAGE_PAYLOADS.join(' '),
      robots: { noIndex: false, noFollow: false },
    },
    categories: '',
    breadcrumbs: [{ title: 'Home', link: '/', target: '', active: 1, current: 0, spacer: 0, hasSubpages: 1 }],
    appearance: { layout: 'layout-0', backendLayout: 'default' },
    content: { colPos0: elements },
    i18n: [],
  }
}

/** Adds a link to the English minor navigation, so that the build finds a page added by a test. */
async function linkFromNavigation(contentDir: string, title: string, link: string): Promise<void> {
  const file = join(contentDir, 'initial-data', 'en.json')
  const data = await readJson(file)
  const minor = Array.isArray(data.minorNavigation) ? data.minorNavigation : []
  minor.push({ title, link, target: '', active: 0, current: 0, spacer: 0, hasSubpages: 0 })
  data.minorNavigation = minor
  // Written back with JSON.stringify: the fixture's literal "__proto__" key survives as an own property.
  await writeFile(file, JSON.stringify(data))
}

/**
 * A temporary copy of the hostile fixture. `bigPage` adds the generated 5 MB page,
 * `variants` adds pages from the variants folder; each is linked from the English navigation.
 */
export interface HostileSiteOptions {
  bigPage?: boolean
  variants?: VariantName[]
  /** Extra links for the English minor navigation (values JSON cannot carry through a committed fixture comfortably). */
  navLinks?: string[]
}

export async function copyHostileSite(options: HostileSiteOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'site-hostile-content-'))
  await cp(HOSTILE_FIXTURE, dir, { recursive: true })
  if (options.bigPage) {
    await writeFile(join(dir, 'pages', 'en', 'big-page.json'), JSON.stringify(createBigPage()))
    await linkFromNavigation(dir, 'Big page', BIG_PAGE_PATH)
  }
  for (const name of options.variants ?? []) {
    const variant = VARIANTS[name]
    await cp(join(dir, 'variants', variant.file), join(dir, 'pages', 'en', `variant-${variant.file}`))
    await linkFromNavigation(dir, `Variant ${name}`, variant.path)
  }
  for (const link of options.navLinks ?? []) await linkFromNavigation(dir, 'Extra link', link)
  return dir
}

export interface HostileBuild {
  api: DemoApi
  contentDir: string
  /** The temporary folder that holds only the output folder. */
  parent: string
  outDir: string
  /** Names in `parent` before the build. */
  parentBefore: string[]
  configFile: string
  result: BuildResult
  close(): Promise<void>
}

/** Writes the test's site config: the demo API, three locales, a fixed public origin, no tracking. */
export async function writeHostileConfig(apiUrl: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-hostile-config-'))
  const file = join(dir, 'site.config.json')
  const config = {
    baseUrl: HOSTILE_BASE_URL,
    api: { baseUrl: apiUrl },
    i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
  }
  await writeFile(file, JSON.stringify(config, null, 2))
  return { dir, file }
}

/** Serves a copy of the corpus and builds it with `build()` into `<temp parent>/<temp out>`. */
export async function buildHostileSite(options: HostileSiteOptions = {}): Promise<HostileBuild> {
  const contentDir = await copyHostileSite(options)
  const api = await startDemoApi({ port: 0, contentDir })
  const parent = await mkdtemp(join(tmpdir(), 'site-hostile-parent-'))
  const outDir = await mkdtemp(join(parent, 'out-'))
  const parentBefore = (await readdir(parent)).sort()
  const config = await writeHostileConfig(api.url)
  const close = async () => {
    await api.close()
    await Promise.all([contentDir, parent, config.dir].map((dir) => rm(dir, { recursive: true, force: true })))
  }
  try {
    const resolved = await resolveConfig({ root: PROJECT_ROOT, configFile: config.file, outDir })
    const result = await build({
      config: resolved,
      site: selectSite(resolved.sites),
      logger: { info: () => {}, warn: () => {} },
    })
    return { api, contentDir, parent, outDir, parentBefore, configFile: config.file, result, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** Every file under `dir` (relative, `/` separated); symlinks are listed too, with `symlink: true`. */
export async function walkFiles(dir: string): Promise<Array<{ path: string; symlink: boolean }>> {
  const found: Array<{ path: string; symlink: boolean }> = []
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name)
      if (entry.isDirectory()) await walk(full)
      else
        found.push({ path: relative(dir, full).split('\\').join('/'), symlink: (await lstat(full)).isSymbolicLink() })
    }
  }
  await walk(dir)
  return found.sort((a, b) => (a.path < b.path ? -1 : 1))
}

// ---------------------------------------------------------------------------------------------
// A small HTML tokenizer, close enough to the HTML5 tokenizer for what the tests look at:
// start tags with their attributes (quoted, unquoted, valueless), comments, and the raw
// text of script/style/textarea/title/noscript, which ends only at the matching end tag.

export interface HtmlTag {
  name: string
  attrs: Array<[string, string]>
  /** Raw text of a raw-text element (script, style, title, textarea). */
  text?: string
  offset: number
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'])
const ENTITY_RE = /&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: '\u00a0',
}

/** Decodes the entities an attribute value may hide a scheme behind (`&#106;avascript&colon;`). */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY_RE, (match, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd'
    }
    return NAMED[body.toLowerCase()] ?? match
  })
}

/** Start tags of a document, in order. */
export function tokenizeHtml(html: string): HtmlTag[] {
  const tags: HtmlTag[] = []
  let i = 0
  const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\f' || c === '\r'
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) break
    i = lt + 1
    if (html.startsWith('!--', i)) {
      const end = html.indexOf('-->', i + 3)
      i = end < 0 ? html.length : end + 3
      continue
    }
    if (html[i] === '!' || html[i] === '?') {
      const end = html.indexOf('>', i)
      i = end < 0 ? html.length : end + 1
      continue
    }
    const closing = html[i] === '/'
    if (closing) i += 1
    if (!/[a-zA-Z]/.test(html[i] ?? '')) continue
    let name = ''
    while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') name += html[i++]!.toLowerCase()
    const attrs: Array<[string, string]> = []
    for (;;) {
      while (isSpace(html[i]) || html[i] === '/') i++
      if (i >= html.length || html[i] === '>') {
        i++
        break
      }
      let attr = html[i++]!
      while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=')
        attr += html[i++]
      while (isSpace(html[i])) i++
      let value = ''
      if (html[i] === '=') {
        i++
        while (isSpace(html[i])) i++
        const quote = html[i]
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, i + 1)
          value = html.slice(i + 1, end < 0 ? html.length : end)
          i = end < 0 ? html.length : end + 1
        } else {
          while (i < html.length && !isSpace(html[i]) && html[i] !== '>') value += html[i++]
        }
      }
      attrs.push([attr.toLowerCase(), decodeEntities(value)])
    }
    if (closing) continue
    const tag: HtmlTag = { name, attrs, offset: lt }
    if (RAW_TEXT.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, i)
      tag.text = html.slice(i, end < 0 ? html.length : end)
      i = end < 0 ? html.length : end
    }
    tags.push(tag)
  }
  return tags
}

const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'poster',
  'data',
  'background',
  'cite',
  'ping',
  'srcset',
  'lowsrc',
  'dynsrc',
  'manifest',
  'codebase',
  'archive',
])
const BAD_SCHEME_RE = /^(javascript|vbscript|data|file):/i
const BAD_TAGS = new Set(['base', 'object', 'embed', 'applet', 'frame', 'frameset', 'portal'])

/** A URL as a browser reads its scheme: control characters and whitespace removed. */
const schemeView = (value: string): string => value.replace(/[\u0000-\u0020\u007f]/g, '')

/**
 * What in a written HTML document could run script or leave the page: event-handler
 * attributes, dangerous URL schemes in URL attributes, unexpected scripts, more than one
 * `<title>`, a boot JSON that does not parse, a meta refresh to such a URL. Empty when the document is clean.
 */
export function findHtmlViolations(html: string): string[] {
  const problems: string[] = []
  const tags = tokenizeHtml(html)
  const head = html.indexOf('</head>')
  let loaders = 0
  for (const tag of tags) {
    const where = `<${tag.name}> at ${tag.offset}`
    if (BAD_TAGS.has(tag.name)) problems.push(`${where}: element not allowed`)
    for (const [name, value] of tag.attrs) {
      if (/^on/i.test(name))
        problems.push(`${where}: event handler attribute ${name}=${JSON.stringify(value.slice(0, 60))}`)
      if (name === 'srcdoc') problems.push(`${where}: srcdoc attribute`)
      if (name === 'style' && /(javascript|expression\()/i.test(value))
        problems.push(`${where}: script in style attribute`)
      if (URL_ATTRS.has(name) && BAD_SCHEME_RE.test(schemeView(value)))
        problems.push(`${where}: ${name}=${JSON.stringify(value.slice(0, 60))}`)
    }
    const attr = (n: string) => tag.attrs.find(([k]) => k === n)?.[1]
    if (tag.name === 'meta' && attr('http-equiv')?.toLowerCase() === 'refresh') {
      const target = schemeView(
        (attr('content') ?? '').replace(/^[^;]*;\s*(url\s*=\s*)?/i, '').replace(/^['"]|['"]$/g, ''),
      )
      if (BAD_SCHEME_RE.test(target)) problems.push(`${where}: meta refresh to ${JSON.stringify(target.slice(0, 60))}`)
    }
    if (tag.name === 'script') {
      const type = attr('type') ?? ''
      const src = attr('src') ?? ''
      if (type === 'application/json') {
        try {
          JSON.parse(tag.text ?? '')
        } catch {
          problems.push(`${where}: JSON script does not parse (content broke out of it?)`)
        }
      } else if (attr('id') === '__SITE_LOADER__' && !src) {
        // The renderer's client loader: once, and naming nothing but the site's own modules.
        loaders++
        const { scripts, preloads } = loaderModulesOf(tag.text ?? '')
        const urls = [...scripts, ...preloads]
        if (type !== 'module' || scripts.length === 0 || urls.some((url) => !url.startsWith('/_site/')))
          problems.push(`${where}: unexpected client loader ${JSON.stringify((tag.text ?? '').slice(0, 60))}`)
      } else if (!(type === 'module' && src.startsWith('/_site/') && (tag.text ?? '').trim() === '')) {
        problems.push(
          `${where}: unexpected script ${JSON.stringify({ type, src, text: (tag.text ?? '').slice(0, 60) })}`,
        )
      }
    }
  }
  if (loaders > 1) problems.push(`${loaders} client loaders`)
  // A page whose API data has no usable title has no <title>; more than one means content broke out of it.
  const titles = tags.filter((t) => t.name === 'title')
  if (titles.length > 1) problems.push(`${titles.length} <title> elements`)
  if (titles.some((t) => head >= 0 && t.offset > head)) problems.push('<title> outside <head>')
  for (const raw of ['<script>alert', '<script>window.__xss', '<img src=x onerror', '<svg onload']) {
    if (html.includes(raw)) problems.push(`raw ${JSON.stringify(raw)} in the document`)
  }
  return problems
}
