/** Shared set-up of the build tests: config on the repo's templates, a render core and client bundle loaded once per file, file-tree helpers. */
import { type ChildProcess, spawn } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from '../../src/build/build.js'
import type { BuildOptions, BuildResult } from '../../src/build/types.js'
import { resolveSites } from '../../src/config/resolve.js'
import type { ResolvedConfig, UserConfig } from '../../src/config/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { bundleClient, type ClientBundle } from '../../src/hydration/bundle.js'
import { loadRenderer, type PageRenderer } from '../../src/render/renderer.js'
import { classifyLink } from '../../src/shared/links.js'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BASE_URL = 'https://www.amberline.example'
export const LOCALES = ['en', 'pl', 'de'] as const

export function makeConfig(apiUrl: string, user: UserConfig = { baseUrl: BASE_URL }, outDir?: string): ResolvedConfig {
  return {
    root: REPO_ROOT,
    configFile: join(REPO_ROOT, 'config/site.config.ts'),
    sites: resolveSites(user, { apiBaseUrl: apiUrl, outDir }, 'test config'),
  }
}

/** The render core and the client bundle, loaded once and shared by the builds of a test file. */
export interface BuildTools {
  /** Renders in the main thread; leave it out to use render workers (from the compiled dist/). */
  renderer?: PageRenderer
  bundleClient: () => Promise<ClientBundle>
}

export async function loadBuildTools(): Promise<BuildTools> {
  const [renderer, client] = await Promise.all([
    loadRenderer(REPO_ROOT),
    bundleClient({ root: REPO_ROOT, minify: true }),
  ])
  return { renderer, bundleClient: async () => client }
}

export function buildSite(
  input: { apiUrl: string; outDir: string; tools: BuildTools; user?: UserConfig } & Partial<BuildOptions>,
): Promise<BuildResult> {
  const { apiUrl, tools, user, outDir, ...rest } = input
  const config = makeConfig(apiUrl, user, outDir)
  return build({ config, site: config.sites[0]!, ...tools, ...rest })
}

/** Every file under `dir`, relative path -> bytes. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(relative(dir, path).split('\\').join('/'), await readFile(path))
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/** Internal page paths of every navigation tree of raw initial data, normalised. */
export function navigationPaths(initialData: Record<string, unknown>): Set<string> {
  const paths = new Set<string>()
  const walk = (entries: unknown) => {
    if (!Array.isArray(entries)) return
    for (const entry of entries as Array<{ link?: string; children?: unknown }>) {
      const link = classifyLink(entry.link)
      if (link.type === 'page') paths.add(link.path)
      walk(entry.children)
    }
  }
  for (const key of ['navigation', 'featuredNavigation', 'minorNavigation', 'footerNavigation', 'socialMenu'])
    walk(initialData[key])
  return paths
}

/** The JSON a page embeds for hydration. */
export function readBoot(html: string): {
  clientVersion: string
  initialDataUrl?: string
  state: Record<string, unknown>
} {
  const match = /<script id="__SITE_BOOT__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)
  if (!match) throw new Error('no boot JSON in the page')
  return JSON.parse(match[1]!)
}

/** A copy of demo/content under `dir`, for tests that change the CMS's data between builds (then `api.reload()`). */
export async function copyDemoContent(dir: string): Promise<string> {
  const target = join(dir, 'content')
  await cp(join(REPO_ROOT, 'demo/content'), target, { recursive: true })
  return target
}

/** A CMS tests can publish to: the demo API on a copy of demo/content in a new temporary folder, and the build tools. */
export interface EditableDemo {
  dir: string
  /** The content folder the API serves: edit it, then `api.reload()`. */
  content: string
  api: DemoApi
  tools: BuildTools
  close(): Promise<void>
}

export async function startEditableDemo(prefix: string): Promise<EditableDemo> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const content = await copyDemoContent(dir)
  const [api, tools] = await Promise.all([startDemoApi({ port: 0, contentDir: content }), loadBuildTools()])
  return {
    dir,
    content,
    api,
    tools,
    async close() {
      await api.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Replaces `from` by `to` in a content file (it must be there), as an editor publishing a change. */
export async function editFile(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`)
  await writeFile(file, text.replaceAll(from, to))
}

/**
 * Replaces every `from` by `to` in every page and initial-data file of the demo content under `content`: a slug and
 * each link to it, as TYPO3 answers after a rename.
 */
export async function replaceInContent(content: string, from: string, to: string): Promise<void> {
  for (const folder of ['pages/en', 'pages/pl', 'pages/de', 'initial-data'].map((f) => join(content, f)))
    for (const name of await readdir(folder)) {
      const file = join(folder, name)
      const text = await readFile(file, 'utf8')
      if (text.includes(from)) await writeFile(file, text.replaceAll(from, to))
    }
}

/** Every file under `dir` with its inode and modification time: a file that was rewritten has another. */
export async function readFileIdentities(dir: string): Promise<Map<string, string>> {
  const identities = new Map<string, string>()
  for (const path of (await readTree(dir)).keys()) {
    const info = await stat(join(dir, path), { bigint: true })
    identities.set(path, `${info.ino}:${info.mtimeNs}`)
  }
  return identities
}

/** Paths whose bytes differ between two trees, and paths only one of them has. */
export function diffTrees(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()])
  return [...paths].filter((path) => !a.get(path)?.equals(b.get(path) ?? Buffer.alloc(0)) || !b.has(path)).sort()
}

/** The real `site` executable (bin/site.js on the compiled dist/) running in CI mode. */
export interface SiteProcess {
  child: ChildProcess
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

export function startSite(args: string[], { cwd = REPO_ROOT }: { cwd?: string } = {}): SiteProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), ...args], {
    cwd,
    env: { ...process.env, CI: 'true' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => (stdout += chunk))
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  const done = new Promise<Awaited<SiteProcess['done']>>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
  return { child, done }
}
