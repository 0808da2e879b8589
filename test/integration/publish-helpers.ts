/** The real `site publish` in a child process, signed TYPO3 webhooks, and waiting on its /status. */
import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import type { PublishStatus } from '../../src/publish/status.js'
import { BASE_URL, copyDemoContent, type SiteProcess, startSite } from './build-helpers.js'

export const WEBHOOK = { identifier: '5d0f7c1e-8b3a-4e2f-9c6d-1a2b3c4d5e6f', secret: 'webhook-secret-for-tests' }
export const TOKEN = 'publish-token-for-tests'

/** The headers TYPO3 sends: `Webhook-Signature` = hex HMAC-SHA256(secret, `<identifier>:<body>`). */
export const typo3Headers = (body: string, webhook = WEBHOOK): Record<string, string> => ({
  'content-type': 'application/json',
  'webhook-signature-algo': 'sha256',
  'webhook-signature': createHmac('sha256', webhook.secret).update(`${webhook.identifier}:${body}`).digest('hex'),
})

/** A TYPO3 Page Modification message for page `uid`. */
export const pageMessage = (uid: number, over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    action: 'edit',
    identifier: uid,
    record: { uid, pid: 1, l10n_parent: 0, sys_language_uid: 0, title: 'Team' },
    url: 'https://cms.example.com/',
    site: 'main',
    workspace: 0,
    changedFields: ['title'],
    ...over,
  })

export interface RunningPublisher extends SiteProcess {
  url: string
  status(): Promise<PublishStatus>
  post(path: string, body: string, headers?: Record<string, string>): Promise<Response>
}

/** Starts `site publish ARGS --port 0` (in `cwd`, the repository by default) and resolves once it listens. */
export async function startPublisher(args: string[], options: { cwd?: string } = {}): Promise<RunningPublisher> {
  const running = startSite(['publish', '--port', '0', ...args], options)
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    running.child.stderr?.on('data', (chunk) => {
      stderr += chunk
      const match = /status at (http:\/\/127\.0\.0\.1:\d+)\/status/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    void running.done.then((end) => reject(new Error(`site publish ended (${end.code}): ${end.stderr}`)))
  })
  return {
    ...running,
    url,
    status: async () => (await (await fetch(`${url}/status`)).json()) as PublishStatus,
    post: (path, body, headers = {}) => fetch(`${url}${path}`, { method: 'POST', body, headers }),
  }
}

/**
 * Ends every publisher of `running` after a test that failed: one left running holds the output folder's lock, and
 * every later test of the file would fail on it rather than on what it checks.
 */
export function endPublishersAfterAFailure(running: readonly RunningPublisher[]): void {
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') for (const publisher of running) publisher.child.kill('SIGKILL')
  })
}

/** Polls until `check` holds (a hang guard, not a speed check). */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * Follows what a publisher logs from now on. `until` waits for the log to hold `text`, stops following and
 * resolves to the whole log followed.
 */
export function followLog(publisher: SiteProcess): {
  until(text: string, what: string, timeoutMs?: number): Promise<string>
} {
  let log = ''
  const listen = (chunk: Buffer) => {
    log += chunk
  }
  publisher.child.stderr?.on('data', listen)
  return {
    async until(text, what, timeoutMs = 20_000) {
      try {
        await waitUntil(async () => log.includes(text), what, timeoutMs)
      } finally {
        publisher.child.stderr?.off('data', listen)
      }
      return log
    },
  }
}

export const fileHas = (file: string, text: string) => async () => (await readFile(file, 'utf8')).includes(text)

/** Nothing pending, no build running, the newest publish live. */
export const settled = (publisher: RunningPublisher) => async () => {
  const status = await publisher.status()
  return status.pending === 0 && !status.building && status.publishes[0]?.ok === true
}

/** A publisher's project over a CMS tests can publish to (a copy of demo/content): its folder, API, output and config. */
export interface PublishProject {
  dir: string
  /** The content folder the API serves: edit it, then `api.reload()`. */
  content: string
  api: DemoApi
  out: string
  configFile: string
  close(): Promise<void>
}

/** Starts the demo API on a copy of demo/content and writes a config with WEBHOOK, TOKEN and these timings. */
export async function startPublishProject(
  prefix: string,
  timing: { quietMs: number; maxWaitMs: number },
): Promise<PublishProject> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const content = await copyDemoContent(dir)
  const api = await startDemoApi({ port: 0, contentDir: content })
  const configFile = join(dir, 'site.config.json')
  const publish = { webhooks: [WEBHOOK], token: TOKEN, ...timing }
  await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, publish }))
  return {
    dir,
    content,
    api,
    out: join(dir, 'out'),
    configFile,
    async close() {
      await api.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
