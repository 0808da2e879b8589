import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../../src/build/types.js'
import type { ResolvedSite } from '../../../src/config/types.js'
import type { DeployTarget } from '../../../src/deploy/targets/types.js'
import type { Builder } from '../../../src/publish/builder.js'
import { openJournal } from '../../../src/publish/journal.js'
import { createPublisher } from '../../../src/publish/publisher.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A builder whose builds wait until `release` is called (or succeed at once with `hold: false`). */
function fakeBuilder(hold: boolean, only?: BuildResult['only']) {
  let release = () => {}
  const builder: Builder = {
    build: ({ signal }) =>
      new Promise<BuildResult>((resolve, reject) => {
        const result = {
          failures: [],
          changes: { pages: { added: [], changed: [], removed: [], unchanged: [] }, slugs: [] },
          filesWritten: 0,
          recheck: { complete: false, pages: [] },
          only,
        } as unknown as BuildResult
        if (!hold) return resolve(result)
        release = () => resolve(result)
        signal?.addEventListener('abort', () => reject(new Error('stopped')))
      }),
    close: async () => {},
  }
  return { builder, release: () => release() }
}

const site = { api: { baseUrl: 'http://127.0.0.1:1/', headers: {} } } as unknown as ResolvedSite

async function startPublisher(opts: {
  reconcileAtStart: boolean
  target?: DeployTarget
  hold?: boolean
  only?: BuildResult['only']
}) {
  const stateDir = await mkdtemp(join(tmpdir(), 'site-publisher-'))
  dirs.push(stateDir)
  const lines: string[] = []
  const { builder } = fakeBuilder(opts.hold ?? false, opts.only)
  const made = createPublisher({
    site: 'example',
    outDir: join(stateDir, 'out'),
    options: { quietMs: 10, maxWaitMs: 100, reconcileMinutes: 60, deployTimeoutMs: 10_000 },
    builder,
    target: opts.target,
    siteOptions: site,
    log: (line) => lines.push(line),
    reconcileAtStart: opts.reconcileAtStart,
    stateDir,
  })
  made.start(await openJournal(stateDir, made.record))
  return { ...made, lines, stateDir }
}

describe('the publisher', () => {
  it('counts in /status only the events that came, not its own reconcile at start', async () => {
    const { publisher } = await startPublisher({ reconcileAtStart: true })
    expect(publisher.status().pending).toBe(0)
    await publisher.idle()
    expect(publisher.status().publishes[0]).toMatchObject({ ok: true, full: true, events: 0 })
    await publisher.accept({ kind: 'pages', pages: ['12'], what: 'page 12 edit' }, 'a test')
    expect(publisher.status().pending).toBe(1)
    await publisher.idle()
    expect(publisher.status().publishes[0]).toMatchObject({ ok: true, pages: ['12'], events: 1 })
    await publisher.stop()
  })

  it('says on stop how many events stay in the journal, and nothing when none does', async () => {
    const idle = await startPublisher({ reconcileAtStart: true })
    await idle.publisher.idle()
    await idle.publisher.stop()
    expect(idle.lines.join('\n')).not.toContain('stay in')

    const busy = await startPublisher({ reconcileAtStart: false, hold: true })
    await busy.publisher.accept({ kind: 'pages', pages: ['12'], what: 'page 12 edit' }, 'a test')
    await busy.publisher.accept({ kind: 'pages', pages: ['14'], what: 'page 14 edit' }, 'a test')
    await busy.publisher.stop()
    expect(busy.lines).toContain(`2 event(s) not yet live stay in the journal in ${busy.stateDir} for the next start`)
  })

  it('does not say a stopped publish of its own (a reconcile, the check at start) left events in the journal', async () => {
    const { publisher, lines } = await startPublisher({ reconcileAtStart: true, hold: true })
    while (!publisher.status().building) await new Promise((resolve) => setTimeout(resolve, 5))
    await publisher.stop()
    expect(lines).toContain('publish of all pages stopped: no webhook asked for it, so the journal keeps nothing of it')
    expect(lines.join('\n')).not.toContain('stay in the journal')
  })

  it('says why a publish of a few pages built every page (the output is of another version of site)', async () => {
    const fallback = 'the previous output was built by another version of site'
    const only = {
      requested: ['12'],
      unknownUids: [],
      unknownFiles: [],
      unknownPaths: [],
      refetched: [],
      rerenderedLocales: [],
      fallback,
    }
    const { publisher, lines } = await startPublisher({ reconcileAtStart: false, only })
    await publisher.accept({ kind: 'pages', pages: ['12'], what: 'page 12 edit' }, 'a test')
    await publisher.idle()
    await publisher.stop()
    expect(lines).toContain(`every page was built, as ${fallback}`)
  })
})
