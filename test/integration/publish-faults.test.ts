/**
 * `site publish` through real faults: an S3-compatible store (s3rver on 127.0.0.1) that goes away and comes back,
 * a publisher killed (-9) while it deploys, an API failing for some pages, a `command:` target whose host is down.
 * Once the fault is gone, the target holds exactly the output (and the files its manifest keeps for open tabs),
 * no pending record, and every acknowledged edit; while it lasts, the live site keeps what it had.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { TARGET_RECORD_FILES } from '../../src/deploy/targets/types.js'
import { type S3Server, startS3Server } from '../shared/s3-server.mjs'
import { BASE_URL, diffTrees, REPO_ROOT, readTree } from './build-helpers.js'
import {
  endPublishersAfterAFailure,
  type RunningPublisher,
  settled,
  startPublisher,
  TOKEN,
  waitUntil,
} from './publish-helpers.js'

const BUCKET = 'site-live'
const PREFIX = 'www'
let api: DemoApi
let dir: string
let configFile: string
let out: string
let s3: S3Server | undefined
let port = 0
const env = { ...process.env }
const running: RunningPublisher[] = []
endPublishersAfterAFailure(running)

const args = () => ['--config', configFile, '--api', api.url, '--out', out]
const startS3 = async () => {
  s3 = await startS3Server({ directory: join(dir, 's3'), buckets: [BUCKET], port })
  port = Number(new URL(s3.endpoint).port)
  Object.assign(process.env, s3.env)
}
const stopS3 = async () => {
  await s3?.close()
  s3 = undefined
}

/** Every object under the prefix, path -> bytes. */
async function readBucket(): Promise<Map<string, Buffer>> {
  const client = new S3Client({ forcePathStyle: true })
  try {
    const objects = new Map<string, Buffer>()
    let token: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${PREFIX}/`, ContinuationToken: token }),
      )
      for (const { Key } of page.Contents ?? []) {
        const body = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key }))
        objects.set(Key!.slice(PREFIX.length + 1), Buffer.from(await body.Body!.transformToByteArray()))
      }
      token = page.NextContinuationToken
    } while (token)
    return objects
  } finally {
    client.destroy()
  }
}

/** The bucket holds the output, and beside it only its manifest and the files the manifest keeps as gone. */
async function expectConverged() {
  const bucket = await readBucket()
  expect([...bucket.keys()]).not.toContain(TARGET_RECORD_FILES.pending)
  const manifest = JSON.parse(bucket.get(TARGET_RECORD_FILES.manifest)!.toString()) as { gone: Record<string, number> }
  bucket.delete(TARGET_RECORD_FILES.manifest)
  expect(diffTrees(await readTree(out), bucket)).toEqual(Object.keys(manifest.gone).sort())
}

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'site-publish-faults-'))
  out = join(dir, 'out')
  configFile = join(dir, 'site.config.json')
  const publish = { deploy: `s3://${BUCKET}/${PREFIX}`, token: TOKEN, quietMs: 100, maxWaitMs: 1000 }
  await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, api: { timeoutMs: 1000 }, publish }))
  await startS3()
})

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL')
  process.env = env
  await stopS3()
  await api?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('site publish to S3, through faults', () => {
  it('completes after a restart the deploy a kill -9 cut, with the target down meanwhile', async () => {
    const first = await startPublisher([...args(), '--state', join(dir, 'state')])
    running.push(first)
    // the reconcile at start has built the site; its deploy has begun: the store goes away half way
    await waitUntil(
      async () => (await fetch(`${s3!.endpoint}/${BUCKET}/${PREFIX}/${TARGET_RECORD_FILES.pending}`)).ok,
      'the deploy to begin',
      60_000,
    )
    await stopS3()
    await waitUntil(async () => (await first.status()).publishes[0]?.ok === false, 'the deploy to fail', 30_000)
    first.child.kill('SIGKILL')
    await first.done
    await startS3()

    const second = await startPublisher([...args(), '--state', join(dir, 'state')])
    running.push(second)
    // no event waits (a reconcile's is not journaled): the start itself brings the target up to the output
    await waitUntil(settled(second), 'the restarted publisher to deploy', 30_000)
    await expectConverged()
    publisher = second
  }, 60_000)

  it('publishes every edit of a burst during which the store went away and came back', async () => {
    // the store comes back only once a publish has failed on it: the fault is met whatever the machine's pace
    const comeBack = async () => {
      const failed = async () => (await publisher.status()).publishes.some((p) => !p.ok)
      await waitUntil(failed, 'a publish to fail while the store is away', 20_000)
      await startS3()
    }
    let downAt = 0
    for (let i = 1; i <= 12; i++) {
      const page = i % SERVICES.length
      await editService(page, i)
      await postPage(page)
      // the store goes away as soon as a publish runs, and comes back three edits later
      if (!downAt && (await publisher.status()).building) {
        await stopS3()
        downAt = i
      }
      if (downAt && i === downAt + 3) await comeBack()
      await new Promise((r) => setTimeout(r, 150))
    }
    expect(downAt).toBeGreaterThan(0)
    if (!s3) await comeBack()
    await waitUntil(settled(publisher), 'the burst to be live', 30_000)
    await expectConverged()
    await expectShown()
  }, 60_000)

  it('keeps the live pages while the API fails for some of them, and publishes every edit once it recovers', async () => {
    const before = await readBucket()
    api.setFaults([
      { path: SERVICES[0]!, kind: 'status500' },
      { path: SERVICES[1]!, kind: 'hang' },
      { path: SERVICES[2]!, kind: 'html' },
    ])
    for (const page of SERVICES.keys()) {
      await editService(page, 20 + page)
      await postPage(page)
    }
    await waitUntil(async () => (await publisher.status()).publishes[0]?.ok === false, 'a failed publish', 20_000)
    expect(diffTrees(before, await readBucket())).toEqual([])
    api.setFaults([])
    await waitUntil(settled(publisher), 'the edits to be live', 20_000)
    await expectConverged()
    await expectShown()
  }, 30_000)
})

describe('site publish through a command that fails', () => {
  it('sends again, once the command works, what the failed run was given: an edit taken back meanwhile too', async () => {
    publisher.child.kill('SIGTERM')
    await publisher.done
    const sent = join(dir, 'sent.txt')
    const down = join(dir, 'host-down')
    const script = join(dir, 'host.sh')
    await writeFile(script, `[ -e "${down}" ] && { echo "host down" >&2; exit 4; }\ncat "$2" >> "${sent}"\n`)
    const spec = `command:sh ${script} "$1" "$2"`
    publisher = await startPublisher([...args(), '--state', join(dir, 'state-command'), '--deploy', spec])
    running.push(publisher)
    await waitUntil(settled(publisher), 'the first deploy through the command', 30_000)
    await writeFile(sent, '')
    await writeFile(down, '')
    const team = 'about-us/team/index.html'
    const before = await readFile(join(out, team), 'utf8')
    await api.setEdits([{ path: '/about-us/team', find: 'Amberline', replace: 'Edited, then taken back' }])
    await publisher.post('/hooks/pages', JSON.stringify({ pages: ['/about-us/team'] }), hookHeaders)
    await waitUntil(async () => (await publisher.status()).publishes[0]?.ok === false, 'the command to fail', 20_000)
    expect((await publisher.status()).publishes[0]?.error).toContain('exited with 4: host down')
    await api.setEdits([])
    await publisher.post('/hooks/pages', JSON.stringify({ pages: ['/about-us/team'] }), hookHeaders)
    await rm(down)
    await waitUntil(settled(publisher), 'the command to succeed', 20_000)
    expect(await readFile(join(out, team), 'utf8')).toBe(before)
    // the host may hold the edit the failed run sent: the page goes again, and latest.json after every other
    // upload (deletes of what the output no longer has, the failed run's build manifest, follow it)
    const lines = (await readFile(sent, 'utf8')).trim().split('\n')
    expect(lines).toContain(`upload ${team}`)
    expect(lines.filter((line) => line.startsWith('upload ')).at(-1)).toBe('upload _site/builds/latest.json')
    expect(lines.slice(lines.indexOf('upload _site/builds/latest.json') + 1)).toEqual(
      lines.filter((line) => line.startsWith('delete ')),
    )
  }, 40_000)

  // The retry's build found the output as the failed run's build had left it, and its publish said `changed: 0`
  // for the edit it made live.
  it('counts the pages a failed deploy left unsent in the publish that sends them', async () => {
    const down = join(dir, 'host-down')
    await writeFile(down, '')
    await api.setEdits([{ path: '/about-us/team', find: 'Amberline', replace: 'Edited while the host was down' }])
    await publisher.post('/hooks/pages', JSON.stringify({ pages: ['/about-us/team'] }), hookHeaders)
    await waitUntil(async () => (await publisher.status()).publishes[0]?.ok === false, 'the command to fail', 20_000)
    expect((await publisher.status()).publishes[0]).toMatchObject({ changed: 0, filesUploaded: 0 })
    await rm(down)
    await waitUntil(settled(publisher), 'the retry to succeed', 20_000)
    const [retried] = (await publisher.status()).publishes
    expect(retried).toMatchObject({ ok: true, changed: 1 })
    expect(retried!.filesUploaded).toBeGreaterThan(0)
    await api.setEdits([])
  }, 40_000)
})

describe('site publish through a command that hangs', () => {
  it('stops the command (its whole process group) once publish.deployTimeoutMs has passed, and tries again', async () => {
    const pidFile = join(dir, 'hung-command.pid')
    // the shell leads the group; `sleep` is the host's CLI it started, which never answers
    const spec = `command:echo $$ > "${pidFile}"; sleep 300`
    const config = join(dir, 'site-timeout.config.json')
    const publish = { deploy: spec, token: TOKEN, quietMs: 100, maxWaitMs: 1000, deployTimeoutMs: 1000 }
    await writeFile(config, JSON.stringify({ baseUrl: BASE_URL, publish }))
    const hung = await startPublisher([
      ...['--config', config, '--api', api.url, '--out', join(dir, 'out-hung')],
      ...['--state', join(dir, 'state-hung')],
    ])
    running.push(hung)
    try {
      const failed = async () => (await hung.status()).publishes.some((p) => !p.ok)
      await waitUntil(failed, 'the deploy to be stopped', 20_000)
      const record = (await hung.status()).publishes.find((p) => !p.ok)!
      expect(record.error).toContain('the deploy took longer than publish.deployTimeoutMs (1000 ms) and was stopped')
      // the shell and its sleep are gone: no process of the group is left
      const group = Number(await readFile(pidFile, 'utf8'))
      await waitUntil(async () => !groupRuns(group), 'the command to be gone', 5_000)
      // and it is tried again, as any failed publish
      expect((await hung.status()).retryAt).not.toBeNull()
    } finally {
      hung.child.kill('SIGTERM')
    }
    expect(await hung.done).toMatchObject({ code: 0 })
  }, 40_000)
})

/** Whether a process of the group `pgid` still runs. */
function groupRuns(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

const SERVICES = ['/services/cloud-migration', '/services/custom-software', '/services/data-analytics']
/** Text of each page's answer that an edit appends its number to (none in a slug). */
const TITLES = ['Cloud migration', 'Custom software', 'Data &']
let publisher: RunningPublisher
const hookHeaders = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
/** The edit each page shows in the CMS. */
const shown = SERVICES.map(() => 0)
const editService = (page: number, edit: number) => {
  shown[page] = edit
  return api.setEdits(
    SERVICES.map((path, i) => ({ path, find: TITLES[i]!, replace: `${TITLES[i]} (edit ${shown[i]})` })),
  )
}
const postPage = (page: number) =>
  publisher.post('/hooks/pages', JSON.stringify({ pages: [SERVICES[page]] }), hookHeaders)

/** The output and the bucket show each page's last edit. */
async function expectShown() {
  const bucket = await readBucket()
  for (const [i, path] of SERVICES.entries()) {
    const file = `${path.slice(1)}/index.html`
    expect(await readFile(join(out, file), 'utf8'), file).toContain(`(edit ${shown[i]})`)
    expect(bucket.get(file)?.toString(), file).toContain(`(edit ${shown[i]})`)
  }
}

describe('site publish to a dir: target that an operator replaced with a file', () => {
  it('says the deploy to that target failed, and deploys everything once the folder can be made again', async () => {
    const www = join(dir, 'www')
    const ownOut = join(dir, 'out-dir-target')
    const own = await startPublisher([
      ...['--config', configFile, '--api', api.url, '--out', ownOut],
      // given relative (to the working folder), named by its absolute path from the start line on
      ...['--state', join(dir, 'state-dir-target'), '--deploy', `dir:${relative(REPO_ROOT, www)}`],
    ])
    running.push(own)
    await waitUntil(settled(own), 'the first deploy to the folder', 30_000)
    await rm(www, { recursive: true })
    await writeFile(www, 'not a folder')
    await own.post('/hooks/pages', JSON.stringify({ pages: ['/about-us/team'] }), hookHeaders)
    await waitUntil(async () => (await own.status()).publishes[0]?.ok === false, 'the deploy to fail', 20_000)
    expect((await own.status()).publishes[0]?.error).toMatch(new RegExp(`^Deploy to dir:${www} failed: .*ENOTDIR`))
    await rm(www)
    await waitUntil(settled(own), 'the deploy to succeed', 20_000)
    const target = await readTree(www)
    target.delete(TARGET_RECORD_FILES.manifest)
    expect(diffTrees(await readTree(ownOut), target)).toEqual([])
    own.child.kill('SIGTERM')
    const end = await own.done
    expect(end.code).toBe(0)
    expect(end.stderr).toContain(
      `Publishing to dir:${www}; webhooks at ${own.url}/hooks/pages, ${own.url}/hooks/full, status at`,
    )
  }, 60_000)
})

describe('site publish with no webhook configured (a fresh project)', () => {
  it('says at start that no webhook can reach it, and answers a TYPO3 webhook why', async () => {
    const bare = join(dir, 'no-hooks.config.json')
    await writeFile(bare, JSON.stringify({ baseUrl: BASE_URL }))
    const own = await startPublisher([
      ...['--config', bare, '--api', api.url, '--out', join(dir, 'out-no-hooks')],
      ...['--state', join(dir, 'state-no-hooks')],
    ])
    running.push(own)
    const answer = await own.post('/hooks/typo3', '{}', { 'webhook-signature': '0'.repeat(64) })
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ error: 'no publish.webhooks are configured' })
    own.child.kill('SIGTERM')
    const end = await own.done
    expect(end.stderr).toContain(
      '; no webhook can reach it (set publish.webhooks or publish.token): it publishes on its reconciles only, status at',
    )
  }, 60_000)
})
