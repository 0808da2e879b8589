/** Shared set-up of the preview tests: config, templates, a fake client bundle, a tiny scripted API. */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { resolveSites } from '../../src/config/resolve.js'
import type { ResolvedConfig, UserConfig } from '../../src/config/types.js'
import type { ClientBundle } from '../../src/hydration/bundle.js'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The options of config/site.config.ts that the rules under test depend on. */
export const DEMO_OPTIONS: UserConfig = {
  baseUrl: 'http://127.0.0.1:8080',
  api: {
    allowQuery: ['cHash', 'tx_news_pi1[news]'],
    proxyReqHeaders: ['cookie', 'accept-language'],
    proxyHeaders: ['set-cookie', 'cache-control'],
  },
  i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
  features: { contentPreview: true },
  preview: { queryParam: 'pce' },
}

/** A resolved config whose API is `apiUrl` (as `--api` would set it). */
function makeConfig(apiUrl: string, user: UserConfig = DEMO_OPTIONS, root = REPO_ROOT): ResolvedConfig {
  return {
    root,
    configFile: `${root}/config/site.config.ts`,
    sites: resolveSites(user, { apiBaseUrl: apiUrl }, 'test config'),
  }
}

/** Client assets as the bundler would report them; the handler serves `files` from memory. */
const FAKE_CLIENT: ClientBundle = {
  assets: {
    scripts: ['/_site/assets/entry-1a2b3c.js'],
    styles: ['/_site/assets/styles-4d5e6f.css'],
    templateChunks: {
      layouts: { Default: ['/_site/assets/Default-layout-11.js'] },
      content: { Default: ['/_site/assets/Default-content-22.js'] },
      main: ['/_site/assets/main-33.js'],
    },
  },
  editorAssets: { scripts: ['/_site/assets/editor-7a8b9c.js'], styles: ['/_site/assets/editor-0d1e2f.css'] },
  files: [
    { path: '_site/assets/entry-1a2b3c.js', contents: 'console.log("entry")' },
    { path: '_site/assets/styles-4d5e6f.css', contents: 'body{margin:0}' },
    { path: '_site/assets/editor-7a8b9c.js', contents: 'console.log("editor")' },
    { path: '_site/assets/editor-0d1e2f.css', contents: '.pce-target{}' },
  ],
  hints: [],
  texts: [],
}

export interface ScriptedAnswer {
  status?: number
  headers?: Record<string, string | string[]>
  body: unknown
}

export interface ScriptedApi {
  url: string
  requests: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>
  close(): Promise<void>
}

/**
 * A content API answering from a map of `path+query` (or path alone) to answers;
 * anything else is a 404 `{ error }`. For the narrow cases the demo API does not
 * produce (unsafe redirects, response headers to proxy).
 */
export async function startScriptedApi(answers: Record<string, ScriptedAnswer>): Promise<ScriptedApi> {
  const requests: ScriptedApi['requests'] = []
  const server = createServer((req, res) => {
    const target = req.url ?? '/'
    requests.push({ path: target, headers: req.headers })
    const answer = answers[target] ?? answers[target.split('?')[0]!] ?? { status: 404, body: { error: 'not found' } }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
    res.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

/** The JSON embedded in a page for hydration. */
export function readBoot(html: string): {
  clientVersion: string
  reloadEventsUrl?: string
  hydration?: unknown
  state: Record<string, unknown> & { initialData?: unknown }
} {
  const match = /<script id="__SITE_BOOT__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)
  if (!match) throw new Error('no boot JSON in the page')
  return JSON.parse(match[1]!.replace(/\\u003c/gi, '<'))
}

/** A handler over `config`, with the real templates and (unless given a real one) the fake client bundle. */
export async function makeHandler(options: {
  apiUrl: string
  registry: import('../../src/shared/contract.js').TemplateRegistry
  client?: ClientBundle
  user?: UserConfig
  publicFiles?: ReadonlyMap<string, string>
  log?: (line: string) => void
}) {
  const { createPreviewContext } = await import('../../src/preview/context.js')
  const { createReloadEvents } = await import('../../src/preview/events.js')
  const { createPreviewHandler } = await import('../../src/preview/handler.js')
  const events = createReloadEvents()
  const ctx = createPreviewContext({
    config: makeConfig(options.apiUrl, options.user),
    registry: options.registry,
    client: options.client ?? FAKE_CLIENT,
    events,
    publicFiles: options.publicFiles ?? new Map(),
    log: options.log ?? (() => {}),
  })
  return { handle: createPreviewHandler(ctx), ctx, events }
}

/** Loads the real templates once per test file (esbuild cache in a temp folder). */
export async function loadTestRegistry(cacheDir: string) {
  const { loadTemplates } = await import('../../src/hydration/node-registry.js')
  return loadTemplates(REPO_ROOT, { cacheDir })
}

/** Runs `bin/site.js` until `ready` matches its stdout, then hands over the child. */
export function startCli(args: string[], cwd: string, ready: RegExp) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'site.js'), ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  const started = new Promise<RegExpExecArray>((done, fail) => {
    child.stdout.on('data', () => {
      const match = ready.exec(stdout)
      if (match) done(match)
    })
    void exited.then((code) => fail(new Error(`exited with ${code} before ready: ${stdout}${stderr}`)))
  })
  started.catch(() => {}) // callers that expect a failure await `exited` only
  return { child, started, exited, output: () => ({ stdout, stderr }) }
}
