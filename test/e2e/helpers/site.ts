/**
 * Set-up of the browser tests: the demo content API on a loopback port, the demo
 * site built from it into a temporary folder with `build()`, and that folder served
 * by the static server (`site serve`) on another loopback port.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { type BuildResult, build } from '../../../src/build/build.js'
import { resolveConfig } from '../../../src/config/load.js'
import { selectSite } from '../../../src/config/resolve.js'
import { type DemoApi, type DemoApiOptions, startDemoApi } from '../../../src/demo/server.js'
import { type RunningServer, startStaticServer } from '../../../src/serve/server.js'
import { launchBrowser } from './browser.js'

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface BuiltSite {
  api: DemoApi
  /** The served output folder. */
  outDir: string
  /** `http://127.0.0.1:PORT` of the static server. */
  url: string
  result: BuildResult
  close(): Promise<void>
}

async function buildInto(root: string, apiUrl: string, outDir: string): Promise<BuildResult> {
  const config = await resolveConfig({ root, apiBaseUrl: apiUrl, outDir })
  const result = await build({
    config,
    site: selectSite(config.sites),
    logger: { info: () => undefined, warn: () => undefined },
  })
  if (result.failures.length > 0) throw new Error(`demo build failed: ${JSON.stringify(result.failures)}`)
  return result
}

/**
 * Builds the demo content with the project at `root` (the repository's own by default);
 * `demo` options choose another demo API content, such as a generated site.
 */
export async function startBuiltSite(root = REPO_ROOT, demo: DemoApiOptions = {}): Promise<BuiltSite> {
  const temp = await mkdtemp(join(tmpdir(), 'site-e2e-'))
  const api = await startDemoApi({ ...demo, port: 0 })
  let server: RunningServer | undefined
  try {
    const outDir = join(temp, 'out')
    const result = await buildInto(root, api.url, outDir)
    server = await startStaticServer({ dir: outDir, host: '127.0.0.1', port: 0 })
    const running = server
    return {
      api,
      outDir,
      url: running.url,
      result,
      async close() {
        await running.close()
        await api.close()
        await rm(temp, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await server?.close()
    await api.close()
    await rm(temp, { recursive: true, force: true })
    throw error
  }
}

/**
 * The set-up most browser suites share: the built demo site and Chromium, started
 * before the suite and closed after it; `ready` receives both once they run.
 */
export function useSiteAndBrowser(
  ready: (site: BuiltSite, browser: Browser) => void,
  root?: () => Promise<string>,
  demo?: DemoApiOptions,
): void {
  let site: BuiltSite | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    ;[site, browser] = await Promise.all([
      root ? root().then((dir) => startBuiltSite(dir, demo)) : startBuiltSite(REPO_ROOT, demo),
      launchBrowser(),
    ])
    ready(site, browser)
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })
}
