/**
 * Loads the hand-written demo site from JSON files (layout in demo/README.md) and
 * serves it as a DemoSource. Pages are kept serialised: an answer is one lookup
 * plus the origin substitution.
 */
import { access, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SiteError } from '../errors.js'
import type { InitialData, RedirectData } from '../shared/types.js'
import { isRecord } from '../shared/values.js'
import { pagePath, trimTrailingSlash } from './paths.js'
import type { DemoLanguage, DemoSource } from './types.js'

export interface DemoContent {
  source: DemoSource
  /** Parsed initial data per language code; the generator reuses its footer and social parts. */
  initialData: ReadonlyMap<string, InitialData>
}

interface SiteFile {
  languages: DemoLanguage[]
}

interface RedirectRule extends RedirectData {
  source: string
}

const invalid = (file: string, problem: string, cause?: unknown): SiteError =>
  new SiteError('DEMO_CONTENT_INVALID', `Demo content file ${file} ${problem}.`, {
    cause,
    hint: 'Check the file against demo/README.md.',
  })

async function readJson<T>(file: string): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    throw invalid(file, 'cannot be read', cause)
  }
  try {
    return JSON.parse(text) as T
  } catch (cause) {
    throw invalid(file, 'is not valid JSON', cause)
  }
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  )

/** Reads site.json and checks its languages. */
async function loadDemoLanguages(contentDir: string): Promise<DemoLanguage[]> {
  const file = join(contentDir, 'site.json')
  const site = await readJson<SiteFile>(file)
  const languages = isRecord(site) && Array.isArray(site.languages) ? site.languages : []
  if (
    languages.length === 0 ||
    !languages.every((l) => isRecord(l) && typeof l.twoLetterIsoCode === 'string' && typeof l.base === 'string')
  ) {
    throw invalid(file, 'needs `languages`: a list of { twoLetterIsoCode, base, ... }')
  }
  return languages
}

async function loadPages(contentDir: string, language: DemoLanguage, pages: Map<string, string>): Promise<void> {
  const dir = join(contentDir, 'pages', language.twoLetterIsoCode)
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort()
  for (const name of names) {
    const file = join(dir, name)
    const page = await readJson<unknown>(file)
    if (!isRecord(page) || typeof page.id !== 'number' || typeof page.slug !== 'string') {
      throw invalid(file, 'must be a page object with a numeric `id` and a string `slug`')
    }
    const path = pagePath(language, page.slug)
    if (pages.has(path)) throw invalid(file, `repeats the path ${path}`)
    pages.set(path, JSON.stringify(page))
  }
}

/** Loads everything once; throws a SiteError naming the file when something is wrong. */
export async function loadDemoContent(contentDir: string): Promise<DemoContent> {
  const languages = await loadDemoLanguages(contentDir)
  const pages = new Map<string, string>()
  const initialData = new Map<string, InitialData>()
  const initialDataText = new Map<string, string>()
  const notFound = new Map<string, string>()

  for (const language of languages) {
    const code = language.twoLetterIsoCode
    await loadPages(contentDir, language, pages)
    const data = await readJson<InitialData>(join(contentDir, 'initial-data', `${code}.json`))
    initialData.set(code, data)
    initialDataText.set(code, JSON.stringify(data))
    notFound.set(code, JSON.stringify(await readJson<unknown>(join(contentDir, 'errors', `404.${code}.json`))))
  }

  const redirectFile = join(contentDir, 'redirects.json')
  const rules = (await exists(redirectFile)) ? await readJson<RedirectRule[]>(redirectFile) : []
  const redirects = new Map<string, RedirectData>()
  for (const rule of Array.isArray(rules) ? rules : []) {
    if (!isRecord(rule) || typeof rule.source !== 'string' || typeof rule.redirectUrl !== 'string') {
      throw invalid(redirectFile, 'needs a list of { source, redirectUrl, statusCode }')
    }
    redirects.set(trimTrailingSlash(rule.source), {
      redirectUrl: rule.redirectUrl,
      statusCode: Number(rule.statusCode) || 301,
    })
  }

  const byCode = (map: Map<string, string>, language: DemoLanguage): string =>
    map.get(language.twoLetterIsoCode) ?? '{}'
  const source: DemoSource = {
    languages,
    page: (path) => pages.get(path),
    redirect: (path) => redirects.get(path),
    initialData: (language) => byCode(initialDataText, language),
    notFound: (language) => byCode(notFound, language),
  }
  return { source, initialData }
}
