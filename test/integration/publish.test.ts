/**
 * `site publish`: the real server (bin/site.js) on 127.0.0.1 over the demo API, signed the way TYPO3
 * signs its webhooks; edits reach the output, a kill -9 loses no acknowledged edit, SIGTERM exits 0,
 * and a full disk answers 503 and acknowledges nothing.
 */
import { execFileSync, spawn } from 'node:child_process'
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outputLockFile } from '../../src/build/output/output.js'
import { initialDataFault } from '../../src/demo/faults.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { replayJournal } from '../../src/publish/journal.js'
import {
  PUBLISH_COMPACT_BYTES,
  PUBLISH_MAX_BODY_BYTES,
  PUBLISH_MAX_CONNECTIONS,
  PUBLISH_MAX_READING_BYTES,
  PUBLISH_REQUEST_TIMEOUT_MS,
} from '../../src/shared/constants.js'
import { BASE_URL, diffTrees, REPO_ROOT, readTree, startSite } from './build-helpers.js'
import { connectAnswer, runSite } from './cli-helpers.js'
import {
  endPublishersAfterAFailure,
  fileHas,
  followLog,
  pageMessage,
  type RunningPublisher,
  settled,
  startPublisher,
  TOKEN,
  typo3Headers,
  WEBHOOK,
  waitUntil,
} from './publish-helpers.js'

const TEAM_TEXT = 'The leadership team of Amberline Software.'
/** A `Webhook-Signature` header of the right form, as TYPO3 sends: the body is read before it is found wrong. */
const SIGNED = `Webhook-Signature: ${'0'.repeat(64)}\r\n`
let api: DemoApi
let dir: string
let configFile: string
let out: string
let teamPage: string
const running: RunningPublisher[] = []
endPublishersAfterAFailure(running)

const args = (extra: string[] = []) => [
  '--config',
  configFile,
  '--api',
  api.url,
  '--out',
  out,
  '--state',
  join(dir, 'state'),
  ...extra,
]

/** Posts 11 events of 1,000 pages each under `prefix` (past the pending page cap and the journal's compaction size). */
async function postManyPages(publisher: RunningPublisher, prefix: string): Promise<void> {
  for (let event = 0; event < 11; event++) {
    const pages = Array.from({ length: 1000 }, (_, i) => `${prefix}/page-${event}-${String(i).padStart(5, '0')}`)
    const answer = await publisher.post('/hooks/pages', JSON.stringify({ pages }), {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
    })
    expect(answer.status).toBe(202)
  }
}
const editTeam = (text: string) => api.setEdits([{ path: '/about-us/team', find: TEAM_TEXT, replace: text }])

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'site-publish-'))
  out = join(dir, 'out')
  teamPage = join(out, 'about-us/team/index.html')
  configFile = join(dir, 'site.config.json')
  const publish = { webhooks: [WEBHOOK], token: TOKEN, quietMs: 200, maxWaitMs: 2000 }
  await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, publish }))
})

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL')
  await api?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('site publish', () => {
  let publisher: RunningPublisher

  it('builds the whole site at start when the output folder holds none', async () => {
    publisher = await startPublisher(args())
    running.push(publisher)
    await waitUntil(settled(publisher), 'the first full build')
    const status = await publisher.status()
    expect(status.publishes[0]).toMatchObject({ ok: true, full: true })
    expect(status.lastReconcile).not.toBeNull()
    expect(await readFile(teamPage, 'utf8')).toContain(TEAM_TEXT)
    expect((await fetch(`${publisher.url}/healthz`)).status).toBe(200)
  })

  it('refuses unsigned, foreign, malformed and oversized webhooks, and queues nothing for them', async () => {
    const body = pageMessage(3)
    expect((await publisher.post('/hooks/typo3', body)).status).toBe(401)
    const foreign = { identifier: 'another-webhook', secret: WEBHOOK.secret }
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body, foreign))).status).toBe(401)
    const wrongSecret = { ...WEBHOOK, secret: 'not-the-secret' }
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body, wrongSecret))).status).toBe(401)
    expect((await publisher.post('/hooks/typo3', '{"action":', typo3Headers('{"action":'))).status).toBe(400)
    const odd = JSON.stringify({ hello: 'world' })
    expect((await publisher.post('/hooks/typo3', odd, typo3Headers(odd))).status).toBe(400)
    const huge = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) })
    expect((await publisher.post('/hooks/typo3', huge, typo3Headers(huge))).status).toBe(413)
    const draft = pageMessage(3, { workspace: 1 })
    const answer = await publisher.post('/hooks/typo3', draft, typo3Headers(draft))
    expect(answer.status).toBe(202)
    expect(await answer.json()).toEqual({ accepted: true, draft: true })
    expect((await publisher.post('/hooks/pages', '{"pages":[3]}')).status).toBe(401)
    expect((await publisher.post('/hooks/full', '', { authorization: 'Bearer nope' })).status).toBe(401)
    const auth = { authorization: `Bearer ${TOKEN}` }
    expect((await publisher.post('/hooks/pages', '{"pages":["no-slash"]}', auth)).status).toBe(400)
    expect((await publisher.status()).pending).toBe(0)
  })

  it('answers a webhook sent to a wrong URL 404 and logs where it went, not 405 "use GET"', async () => {
    const log = followLog(publisher)
    const body = pageMessage(3)
    for (const path of ['/hooks/typo3/', '/hook/typo3', '/status/x']) {
      const answer = await publisher.post(path, body, typo3Headers(body))
      expect(answer.status, path).toBe(404)
      expect(await answer.json(), path).toEqual({
        error: 'not found: the webhooks are POST /hooks/typo3, /hooks/pages, /hooks/full',
      })
    }
    expect((await fetch(`${publisher.url}/nothing-here`)).status).toBe(404)
    expect((await publisher.post('/status', '')).status).toBe(405)
    await log.until('404 /hook/typo3: not found: the webhooks are POST /hooks/typo3', 'the log line of the wrong URL')
    expect((await publisher.status()).pending).toBe(0)
  })

  it('answers a webhook sent with another method than POST 405 and logs it, as a CMS set up with GET would send it', async () => {
    const log = followLog(publisher)
    const body = pageMessage(3)
    const answer = await fetch(`${publisher.url}/hooks/typo3`, { method: 'PUT', body, headers: typo3Headers(body) })
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('POST')
    expect((await fetch(`${publisher.url}/hooks/full`, { method: 'HEAD' })).status).toBe(405)
    expect((await fetch(`${publisher.url}/hooks/pages?x=1`)).status).toBe(405)
    const lines = await log.until('405 /hooks/pages: use POST, not GET', 'the log line of the GET')
    expect(lines).toContain('405 /hooks/typo3: use POST, not PUT')
    expect(lines).not.toContain('HEAD')
    expect((await publisher.status()).pending).toBe(0)
  })

  it('answers CONNECT, which node hands to no request listener, with 405 and Allow, not a dropped connection', async () => {
    const answer = await connectAnswer(publisher.url)
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/)
    expect(answer).toMatch(/\r\nallow: GET, HEAD, POST\r\n/i)
  })

  it('logs a refused body on one line, its own line breaks shown as \\n, other control characters escaped', async () => {
    const following = followLog(publisher)
    const body = '{"action":\nforged line\r\n\u001b[2J'
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(400)
    const log = await following.until('400 /hooks/typo3: the body is not JSON', 'the refusal in the log')
    const line = log.split('\n').find((text) => text.includes('400 /hooks/typo3: the body is not JSON'))
    expect(line).toContain('"action":\\nforged line')
    expect(log).not.toMatch(/^forged line/m)
    expect(log).not.toContain('\u001b')
  })

  it('logs the URL of a refused request shortened: a 10 KB path cannot flood the log', async () => {
    const following = followLog(publisher)
    const long = `/hooks/${'a'.repeat(10_000)}`
    expect((await publisher.post(long, '{}')).status).toBe(404)
    const socket = connect(Number(new URL(publisher.url).port), '127.0.0.1')
    socket.write(
      `POST /hooks/typo3?${'b'.repeat(10_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n${SIGNED}Content-Length: 10\r\n\r\n{`,
    )
    await new Promise((done) => setTimeout(done, 200))
    socket.destroy()
    const log = await following.until('the request ended before its body did', 'the line of the request cut short')
    expect(log).toMatch(/^404 \/hooks\/a{100,}… \(10007 characters\): not found/m)
    expect(log).toMatch(/^\/hooks\/typo3\?b{100,}… \(10013 characters\): the request ended/m)
    for (const line of log.split('\n')) expect(line.length).toBeLessThan(1000)
  })

  it('cuts off a client that dribbles its body once the request timeout has passed, and queues nothing', async () => {
    const socket = connect(Number(new URL(publisher.url).port), '127.0.0.1')
    const started = Date.now()
    socket.write(`POST /hooks/typo3 HTTP/1.1\r\nHost: 127.0.0.1\r\n${SIGNED}Content-Length: 1000\r\n\r\n{`)
    const dribble = setInterval(() => socket.write(' '), 1000)
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    await new Promise((done) => socket.once('close', done))
    clearInterval(dribble)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    // node checks its request timeout only every connectionsCheckingInterval (30 s unless set)
    expect(Date.now() - started).toBeLessThan(PUBLISH_REQUEST_TIMEOUT_MS + 3_000)
    expect((await publisher.status()).pending).toBe(0)
    expect((await fetch(`${publisher.url}/healthz`)).status).toBe(200)
  }, 60_000)

  it('closes a connection past its cap at once, and answers again once the others are gone', async () => {
    // a flood of idle connections would take the file descriptors the journal and the builds need
    const port = Number(new URL(publisher.url).port)
    const open = (): Promise<Socket> =>
      new Promise((done, fail) => {
        const socket = connect(port, '127.0.0.1', () => done(socket))
        socket.once('error', fail)
      })
    const held = await Promise.all(Array.from({ length: PUBLISH_MAX_CONNECTIONS }, open))
    try {
      // the server counts a connection once it takes it: the one past the cap is closed, unanswered
      await waitUntil(
        async () => {
          const extra = await open()
          extra.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
          let answer = ''
          extra.on('data', (chunk) => (answer += chunk))
          await new Promise((done) => extra.once('close', done))
          return answer === ''
        },
        'a connection past the cap closed unanswered',
        20_000,
      )
    } finally {
      for (const socket of held) socket.destroy()
    }
    await waitUntil(async () => (await fetch(`${publisher.url}/healthz`)).status === 200, 'an answer again', 20_000)
    expect((await publisher.status()).pending).toBe(0)
  }, 60_000)

  it('logs a client that goes away mid-body as such, not as a 500 of its own, and queues nothing', async () => {
    const following = followLog(publisher)
    const socket = connect(Number(new URL(publisher.url).port), '127.0.0.1')
    socket.write(`POST /hooks/typo3 HTTP/1.1\r\nHost: 127.0.0.1\r\n${SIGNED}Content-Length: 1000\r\n\r\n{"action":`)
    await new Promise((done) => setTimeout(done, 200))
    socket.destroy()
    const log = await following.until('/hooks/typo3', 'the log line of the request cut short', 10_000)
    expect(log).toContain('/hooks/typo3: the request ended before its body did (aborted): nothing queued')
    expect(log).not.toMatch(/^500 /m)
    expect((await publisher.status()).pending).toBe(0)
  })

  it('answers 413 to a client waiting for 100 Continue with a body over 1 MB before it sends a byte', async () => {
    /** One request on its own connection; `body` is sent once the publisher says 100 Continue. */
    const exchange = (head: string, body = '') =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(publisher.url).port), '127.0.0.1')
        let answer = ''
        socket.on('data', (chunk) => {
          answer += chunk
          if (body && answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write(body)
          if (body && answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) body = ''
          if (answer.endsWith('\r\n0\r\n\r\n')) socket.end()
        })
        socket.on('close', () => resolve(answer))
        socket.write(`POST /hooks/typo3 HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n${head}\r\n`)
      })
    const big = await exchange(`${SIGNED}Content-Length: ${2 * 1024 * 1024}\r\n`)
    expect(big).toMatch(/^HTTP\/1\.1 413 /)
    expect(big).toContain('the body is larger than 1 MB')
    // within the limit, the body is asked for and read
    const draft = pageMessage(3, { workspace: 1 })
    const signature = typo3Headers(draft)['webhook-signature']
    const small = await exchange(
      `Webhook-Signature: ${signature}\r\nContent-Length: ${Buffer.byteLength(draft)}\r\n`,
      draft,
    )
    expect(small).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /)
    expect(small).toContain('{"accepted":true,"draft":true}')
    expect((await publisher.status()).pending).toBe(0)
  }, 30_000)

  /** Sends `head` (and `body`) on a connection of its own; resolves to what came back within `ms`, the connection then cut. */
  const answerWithin = (head: string, body: string, ms: number): Promise<{ answer: string; socket: Socket }> =>
    new Promise((resolve) => {
      const socket = connect(Number(new URL(publisher.url).port), '127.0.0.1')
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk))
      socket.write(`${head}\r\n${body}`)
      setTimeout(() => resolve({ answer, socket }), ms)
    })

  it('answers a wrong bearer token or a missing signature before the body comes, reading none of it', async () => {
    const head = 'POST /hooks/pages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer nope\r\n'
    const sent = await answerWithin(`${head}Content-Length: ${1024 * 1024}\r\n`, '{"pages":', 1_000)
    sent.socket.destroy()
    expect(sent.answer).toMatch(/^HTTP\/1\.1 401 /)
    // a client waiting for 100 Continue is told no before it sends a byte
    const waiting = await answerWithin(`${head}Expect: 100-continue\r\nContent-Length: 10\r\n`, '', 1_000)
    waiting.socket.destroy()
    expect(waiting.answer).toMatch(/^HTTP\/1\.1 401 /)
    expect(waiting.answer).toMatch(/^connection: close\r$/im)
    // a wrong token with its body sent whole: answered, and the connection serves the next request
    const whole = await answerWithin(
      `${head}Content-Length: 13\r\n`,
      '{"pages":[3]}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      1_000,
    )
    whole.socket.destroy()
    expect(whole.answer).toMatch(/^HTTP\/1\.1 401 [\s\S]*HTTP\/1\.1 200 /)
    // nor is a TYPO3 webhook with no signature to check read
    const unsigned = `POST /hooks/typo3 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${1024 * 1024}\r\n`
    const typo3 = await answerWithin(unsigned, '{"action":', 1_000)
    typo3.socket.destroy()
    expect(typo3.answer).toMatch(/^HTTP\/1\.1 401 /)
    expect((await publisher.status()).pending).toBe(0)
  })

  it('answers 503 with Retry-After to a webhook while too many bodies are being read at once, then reads them again', async () => {
    const head = `POST /hooks/typo3 HTTP/1.1\r\nHost: 127.0.0.1\r\n${SIGNED}Content-Length: ${PUBLISH_MAX_BODY_BYTES}\r\n`
    const held = await Promise.all(
      Array.from({ length: PUBLISH_MAX_READING_BYTES / PUBLISH_MAX_BODY_BYTES }, () => answerWithin(head, '{', 200)),
    )
    try {
      expect(held.map((sent) => sent.answer)).toEqual(held.map(() => ''))
      const extra = await answerWithin(head, '{', 1_000)
      extra.socket.destroy()
      expect(extra.answer).toMatch(/^HTTP\/1\.1 503 /)
      expect(extra.answer).toMatch(/^retry-after: 1\r$/im)
      expect(extra.answer).toContain('too many webhook bodies are being read at once')
    } finally {
      for (const sent of held) sent.socket.destroy()
    }
    const draft = pageMessage(3, { workspace: 1 })
    await waitUntil(
      async () => (await publisher.post('/hooks/typo3', draft, typo3Headers(draft))).status === 202,
      'the bodies cut off no longer counted',
      10_000,
    )
  })

  it('publishes a signed page edit, and lists it in /status', async () => {
    await editTeam('Edited through a TYPO3 webhook.')
    const body = pageMessage(3)
    const from = api.requests.length
    const answer = await publisher.post('/hooks/typo3', body, typo3Headers(body))
    expect(answer.status).toBe(202)
    await waitUntil(fileHas(teamPage, 'Edited through a TYPO3 webhook.'), 'the edit to be live')
    await waitUntil(settled(publisher), 'the publish to settle')
    // Asked for once, while the publisher waited for its quiet period (before the build's first request, for
    // the initial data); the build took that answer.
    const requests = api.requests.slice(from)
    const asked = requests.flatMap((request, i) => (request.path === '/about-us/team' ? [i] : []))
    expect(asked).toHaveLength(1)
    expect(asked[0]).toBeLessThan(requests.findIndex((request) => request.query.type === '834'))
    const latest = (await publisher.status()).publishes[0]!
    expect(latest).toMatchObject({ ok: true, full: false, pages: ['3'], events: 1 })
    expect(latest.changed).toBeGreaterThan(0)
    expect(latest.latencyMs).toBeGreaterThan(0)
    const html = await (await fetch(`${publisher.url}/status`, { headers: { accept: 'text/html' } })).text()
    expect(html).toContain('<h1>Publishing status</h1>')
    expect(html).not.toContain(WEBHOOK.secret)
    expect(html).not.toContain(TOKEN)
  })

  it("publishes a translation's edit as TYPO3 sends it: its record's numbers as strings", async () => {
    // the Polish record (uid 9003) of page 3, as TYPO3 reads it from its database, and its changed fields
    const body = pageMessage(9003, {
      action: 'modified',
      record: { uid: '9003', pid: '2', l10n_parent: '3', sys_language_uid: '1', t3ver_wsid: '0' },
      workspace: '0',
      changedFields: { title: 'Zespół' },
    })
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
    await waitUntil(settled(publisher), 'the publish to settle')
    expect((await publisher.status()).publishes[0]).toMatchObject({ ok: true, pages: ['3'] })
  })

  it('publishes pages named to /hooks/pages with the bearer token', async () => {
    await editTeam('Edited through /hooks/pages.')
    const answer = await publisher.post('/hooks/pages', '{"pages":["/about-us/team"]}', {
      authorization: `Bearer ${TOKEN}`,
    })
    expect(answer.status).toBe(202)
    await waitUntil(fileHas(teamPage, 'Edited through /hooks/pages.'), 'the edit to be live')
    await waitUntil(settled(publisher), 'the publish to settle')
  })

  it('says in its log which page uid of an event the site has no page of', async () => {
    const log = followLog(publisher)
    const body = pageMessage(424242, { record: { uid: 424242, pid: 1, l10n_parent: 0, sys_language_uid: 0 } })
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
    await log.until('page 424242: no page of the previous build has this uid', 'the log line of the unknown uid')
    await waitUntil(settled(publisher), 'the publish to settle')
  })

  it('publishes the pages that show a file named by a TYPO3 file message, and no other', async () => {
    const homePage = join(out, 'index.html')
    api.setEdits([
      { path: '/about-us/team', find: TEAM_TEXT, replace: 'Team photo replaced.' },
      { path: '/', find: 'What we do', replace: 'Not published by the file message' },
    ])
    const from = api.requests.length
    const body = JSON.stringify({
      storage: 1,
      identifier: '/images/people/anna-kowalska.svg',
      url: 'https://cms.example.com/fileadmin/images/people/anna-kowalska.svg',
    })
    expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
    await waitUntil(fileHas(teamPage, 'Team photo replaced.'), 'the page showing the file to be live')
    await waitUntil(settled(publisher), 'the publish to settle')
    expect(await readFile(homePage, 'utf8')).not.toContain('Not published by the file message')
    const asked = api.requests
      .slice(from)
      .filter((request) => !request.path.startsWith('/fileadmin/') && request.query.type === undefined)
      .map((request) => request.path)
    // the team page in its three locales, not the pages that link to it (initial data, `?type=834`, is asked too)
    expect(asked.filter((path) => path.includes('team') || path.includes('zespol'))).toHaveLength(3)
    // (and, as every --only build, the 404 pages and the paths the API last answered with a redirect)
    expect(asked.filter((path) => !path.includes('__site-404__') && !/\/(old|alte|stare)-/.test(path))).toHaveLength(3)
    expect((await publisher.status()).publishes[0]).toMatchObject({ ok: true, pages: [`file:${JSON.parse(body).url}`] })

    // a file no page shows: nothing is asked of the API but initial data, and the log says so
    const unseen = JSON.stringify({ storage: 1, identifier: '/new.jpg', url: '/fileadmin/new.jpg' })
    const before = api.requests.length
    const log = followLog(publisher)
    expect((await publisher.post('/hooks/typo3', unseen, typo3Headers(unseen))).status).toBe(202)
    await waitUntil(
      async () => (await publisher.status()).publishes[0]?.pages[0] === 'file:/fileadmin/new.jpg',
      'the publish of the unseen file',
    )
    expect(api.requests.slice(before).some((request) => request.path.includes('team'))).toBe(false)
    await log.until(
      'file:/fileadmin/new.jpg: no page shows this file, nothing was published for it',
      'the log line of the unseen file',
      10_000,
    )
    api.setEdits([])
  })

  it('asks again for a page at the time its answer gave (a scheduled change), with no webhook', async () => {
    // a record that starts in 3 s: until then the API answers the page with max-age up to that time
    api.setEdits([
      { path: '/about-us/team', find: TEAM_TEXT, replace: 'Published on schedule.', from: Date.now() + 3000 },
    ])
    const auth = { authorization: `Bearer ${TOKEN}` }
    expect((await publisher.post('/hooks/pages', '{"pages":["/about-us/team"]}', auth)).status).toBe(202)
    await waitUntil(fileHas(teamPage, TEAM_TEXT), 'the page as it is before the scheduled change')
    await waitUntil(settled(publisher), 'the publish to settle')
    const before = await publisher.status()
    expect(before.scheduled.pages).toBe(1)
    expect(Date.parse(before.scheduled.next!)).toBeGreaterThan(Date.now())
    await waitUntil(fileHas(teamPage, 'Published on schedule.'), 'the scheduled change to be live', 30_000)
    await waitUntil(settled(publisher), 'the publish to settle')
    const after = await publisher.status()
    expect(after.publishes[0]).toMatchObject({ ok: true, pages: ['/about-us/team'] })
    expect(after.scheduled).toEqual({ pages: 0, next: null })
    api.setEdits([])
  })

  it('stops on SIGTERM with exit code 0', async () => {
    publisher.child.kill('SIGTERM')
    const end = await publisher.done
    expect(end.code).toBe(0)
    expect(end.stderr).toContain('SIGTERM: stopping')
  })

  it('stops cleanly on a SIGTERM sent as soon as it says it is ready (a supervisor reading that line)', async () => {
    const again = await startPublisher(args())
    running.push(again)
    again.child.kill('SIGTERM')
    const end = await again.done
    expect(end, end.stderr).toMatchObject({ code: 0 })
    expect(end.stderr).toContain('SIGTERM: stopping')
  })

  it('waits for a reconcile further off than a timer reaches (30 days), with none in between', async () => {
    const monthly = join(dir, 'monthly.config.json')
    const publish = { webhooks: [WEBHOOK], token: TOKEN, quietMs: 200, maxWaitMs: 2000, reconcileMinutes: 43_200 }
    await writeFile(monthly, JSON.stringify({ baseUrl: BASE_URL, publish }))
    const started = Date.now()
    const quiet = await startPublisher([
      '--config',
      monthly,
      '--api',
      api.url,
      '--out',
      out,
      '--state',
      join(dir, 'state-monthly'),
    ])
    running.push(quiet)
    await waitUntil(settled(quiet), 'the check at start')
    const status = await quiet.status()
    // the check at start (no page named) is its one publish: no reconcile
    expect(status).toMatchObject({ pending: 0, building: false, lastReconcile: null })
    expect(status.publishes).toEqual([expect.objectContaining({ ok: true, full: false, pages: [] })])
    expect(Date.parse(status.nextReconcile!) - started).toBeGreaterThan(43_199 * 60_000)
    quiet.child.kill('SIGTERM')
    const end = await quiet.done
    expect(end.code).toBe(0)
    expect(end.stderr).not.toContain('reconcile:')
    expect(end.stderr).not.toContain('TimeoutOverflowWarning')
  })

  it('publishes after a kill -9 during a build every edit it acknowledged, as a full build would', async () => {
    const first = await startPublisher(args())
    running.push(first)
    api.setLatency(300)
    await editTeam('Edited just before the crash.')
    const body = pageMessage(3)
    expect((await first.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
    await waitUntil(async () => (await first.status()).building, 'the build to start')
    first.child.kill('SIGKILL')
    expect((await first.done).signal).toBe('SIGKILL')
    api.setLatency(0)

    const second = await startPublisher(args())
    running.push(second)
    await waitUntil(fileHas(teamPage, 'Edited just before the crash.'), 'the recovered edit to be live')
    await waitUntil(settled(second), 'the recovered publish to settle')
    second.child.kill('SIGTERM')
    const end = await second.done
    expect(end.code).toBe(0)
    expect(end.stderr).toContain('recovered 1 event(s) not yet live from the journal')

    // the output equals a full build's over the same API state
    const twin = join(dir, 'twin')
    await cp(out, twin, { recursive: true })
    const full = await runSite(['build', '--config', configFile, '--api', api.url, '--out', twin])
    expect(full.code).toBe(0)
    expect(diffTrees(await readTree(out), await readTree(twin))).toEqual([])
  })

  it('publishes at once an acknowledged edit the journal stamped ahead of the clock (a clock set back since)', async () => {
    await editTeam('Edited while the clock ran an hour ahead.')
    // an event written by a run whose clock was an hour ahead, not yet live when it stopped
    const event = { e: 2 ** 40, at: Date.now() + 3_600_000, pages: ['/about-us/team'] }
    await appendFile(join(dir, 'state', 'journal.jsonl'), `${JSON.stringify(event)}\n`)
    const restarted = await startPublisher(args())
    running.push(restarted)
    // with quietMs 200 and maxWaitMs 2000 it is due within seconds, not in an hour
    await waitUntil(
      fileHas(teamPage, 'Edited while the clock ran an hour ahead.'),
      'the recovered edit to be live',
      30_000,
    )
    restarted.child.kill('SIGTERM')
    expect((await restarted.done).stderr).toContain('recovered 1 event(s) not yet live from the journal')
  })
})

describe('site publish after a release or a config change', () => {
  // A restart over a folder that holds a site only deployed the output as its last build left it: a release or a
  // config change showed on no page until the next event or the reconcile, hours later.
  it('builds at start what the change altered, with no event', async () => {
    const publish = { webhooks: [WEBHOOK], token: TOKEN, quietMs: 200, maxWaitMs: 2000 }
    await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, publish, build: { redirectPages: true } }))
    try {
      const restarted = await startPublisher(args())
      running.push(restarted)
      await waitUntil(settled(restarted), 'the check at start')
      // /old-services is a redirect record of the demo: with redirectPages, a page at the old path
      expect(await readFile(join(out, 'old-services/index.html'), 'utf8')).toContain('content="0; url=/services"')
      restarted.child.kill('SIGTERM')
      const end = await restarted.done
      expect(end.code).toBe(0)
      expect(end.stderr).toContain('check at start: what a release, the config or the navigation changed is built')

      // started again with nothing changed, it writes nothing
      const again = await startPublisher(args())
      running.push(again)
      await waitUntil(settled(again), 'the check at start')
      expect((await again.status()).publishes[0]).toMatchObject({ ok: true, changed: 0, filesUploaded: 0 })
      again.child.kill('SIGTERM')
      expect((await again.done).code).toBe(0)
    } finally {
      await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, publish }))
    }
  })

  it('still brings a target behind up to the output when the API is down at start', async () => {
    // a deploy cut short left the target behind the output; the check's build fails while the API is down, and
    // leaves the output as its last build left it: that output is sent, as the start did before it built
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
    const target = join(dir, 'target-api-down')
    const restarted = await startPublisher([
      ...['--config', configFile, '--api', down, '--out', out],
      ...['--state', join(dir, 'state-api-down'), '--deploy', `dir:${target}`],
    ])
    running.push(restarted)
    const sent = join(target, 'about-us/team/index.html')
    await waitUntil(
      async () => (await readFile(sent, 'utf8')) === (await readFile(teamPage, 'utf8')),
      'the output sent',
      20_000,
    )
    // the check itself failed, and is retried
    await waitUntil(async () => (await restarted.status()).publishCount.failed > 0, 'the failed check')
    expect((await restarted.status()).publishes[0]).toMatchObject({ ok: false, pages: [] })
    restarted.child.kill('SIGTERM')
    expect((await restarted.done).code).toBe(0)
  })
})

describe('site publish that cannot start', () => {
  it('exits 2 naming a --deploy it cannot read, or a port already taken, and writes nothing', async () => {
    const bad = await runSite(['publish', '--port', '0', ...args(['--deploy', 'ftp://host/site'])])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      `--deploy "ftp://host/site": expected 'dir:PATH', 's3://BUCKET/PREFIX' or 'command:CMD'`,
    )

    const taken = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const { port } = taken.address() as AddressInfo
    try {
      const before = await readTree(out)
      const busy = await runSite(['publish', '--port', String(port), ...args()])
      expect(busy.code, busy.stderr).toBe(2)
      expect(busy.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use; pass --port N`)
      expect(busy.stderr).not.toContain('Publishing to')
      expect(diffTrees(before, await readTree(out))).toEqual([])
    } finally {
      taken.close()
    }
  })

  // started in a folder without templates, it retried its first build for ever, with a growing delay
  it('exits 2 naming the template files a project lacks, and writes nothing', async () => {
    const bare = join(dir, 'no-templates')
    await mkdir(bare)
    const started = startSite(['publish', '--port', '0', ...args(['--out', join(bare, 'out')])], { cwd: bare })
    const guard = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
    const res = await started.done.finally(() => clearTimeout(guard))
    expect(res.code, res.stderr).toBe(2)
    expect(res.stderr).toContain(`Templates are incomplete under ${bare}: missing templates/layouts/Default.tsx`)
    expect(res.stderr).not.toContain('Publishing to')
    expect(await readdir(bare)).toEqual([])
  })

  it('exits 2 for a --state folder inside the output folder, which its first publish would remove', async () => {
    const before = await readTree(out)
    const inside = join(out, 'publish-state')
    const started = startSite(['publish', '--port', '0', ...args(['--state', inside])])
    // a hang guard: a publisher that starts there runs until stopped
    const guard = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
    const res = await started.done.finally(() => clearTimeout(guard))
    expect(res.code, res.stderr).toBe(2)
    expect(res.stderr).toContain(
      `The state folder ${inside} is inside the output folder ${out}, which every build replaces: give --state a folder outside it`,
    )
    expect(diffTrees(before, await readTree(out))).toEqual([])
  })

  it('exits 2 for a --state folder inside public/, which every build would copy into the site', async () => {
    const inside = join(REPO_ROOT, 'public', 'publish-state')
    try {
      const started = startSite(['publish', '--port', '0', ...args(['--state', inside])])
      const guard = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
      const res = await started.done.finally(() => clearTimeout(guard))
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toContain(
        `The state folder ${inside} is inside public/, which every build copies into the site: give --state a folder outside it`,
      )
      await expect(stat(inside)).rejects.toThrow(/ENOENT/)
    } finally {
      await rm(inside, { recursive: true, force: true })
    }
  })

  it('exits 2 for an output folder no build may replace, as site build does, and leaves it', async () => {
    const file = join(dir, 'out-is-a-file')
    await writeFile(file, 'not a folder')
    const other = join(dir, 'out-of-someone-else')
    await mkdir(other)
    await writeFile(join(other, 'notes.txt'), 'mine')
    for (const [outDir, why] of [
      [file, 'it is a file, not a folder'],
      [other, 'it is not empty and holds no previous site output'],
    ] as const) {
      const started = startSite(['publish', '--port', '0', ...args(['--out', outDir, '--state', `${outDir}-state`])])
      // a hang guard: before, such a publisher started and retried its build until stopped
      const guard = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
      const res = await started.done.finally(() => clearTimeout(guard))
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toContain(`Refusing to build into ${outDir}: ${why}`)
      // site publish has no --force: the hint may not offer it as a flag of this command
      expect(res.stderr).not.toContain('pass --force')
    }
    expect(await readFile(file, 'utf8')).toBe('not a folder')
    expect(await readFile(join(other, 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('exits 2 for an output folder inside templates/ or public/, as site build does, not by every build', async () => {
    for (const [outDir, why] of [
      [join(REPO_ROOT, 'templates', 'out'), 'it is inside templates/, which the build renders with'],
      [join(REPO_ROOT, 'public', 'out'), 'it is inside public/, which the build copies from'],
    ] as const) {
      const started = startSite(['publish', '--port', '0', ...args(['--out', outDir])])
      // a hang guard: before, such a publisher started and retried its build until stopped
      const guard = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
      const res = await started.done.finally(() => clearTimeout(guard))
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toContain(`Refusing to build into ${outDir}: ${why}`)
      await expect(stat(outDir)).rejects.toThrow(/ENOENT/)
    }
  })

  it('exits 1 naming a --state that is a file, not with a bare EEXIST', async () => {
    const file = join(dir, 'state-is-a-file')
    await writeFile(file, 'not a folder')
    const res = await runSite(['publish', '--port', '0', ...args(['--state', file])])
    expect(res.code, res.stderr).toBe(1)
    expect(res.stderr).toContain(
      `The publish journal ${join(file, 'journal.jsonl')} cannot be made: ${file} (or a folder above it) is a file, not a folder`,
    )
    expect(res.stderr).not.toContain('EEXIST')
  })

  // the publisher's secrets unset where CI builds or deploys with the same config: `secret: env ?? ''`
  it.each([
    {
      what: 'a webhook whose secret is empty',
      name: 'secret',
      publish: { webhooks: [WEBHOOK, { identifier: 'b3e1f0d2-5a6c-4e7f-8a9b-0c1d2e3f4a5b', secret: '' }] },
      message:
        'publish.webhooks[1].secret: empty for webhook b3e1f0d2-5a6c-4e7f-8a9b-0c1d2e3f4a5b: set the secret TYPO3 showed',
    },
    {
      what: 'an empty token',
      name: 'token',
      publish: { webhooks: [WEBHOOK], token: '' },
      message: 'publish.token: empty: set a token, or leave it out',
    },
  ])('exits 2 naming $what, which other commands read without complaint', async ({ name, publish, message }) => {
    const config = join(dir, `site.unset-${name}.json`)
    await writeFile(config, JSON.stringify({ baseUrl: BASE_URL, publish }))
    const own = join(dir, `out-unset-${name}`)
    const refused = await runSite(['publish', '--port', '0', '--config', config, '--api', api.url, '--out', own])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(message)
    expect(refused.stderr).not.toContain('Publishing to')
    await expect(stat(own)).rejects.toMatchObject({ code: 'ENOENT' })
    // the config is valid for a deploy: it gets as far as the missing output
    const deployed = await runSite(['deploy', `dir:${join(dir, 'www-unset')}`, '--config', config, '--out', own])
    expect(deployed.stderr).not.toContain('Invalid configuration')
    expect(deployed.stderr).toContain(`Nothing to deploy in ${own}`)
  })
})

describe('site publish beside another one', () => {
  it('refuses a journal another publisher uses, and takes over the lock of one that was killed', async () => {
    const state = join(dir, 'state-shared')
    const first = await startPublisher([...args(), '--state', state])
    running.push(first)
    const before = await readFile(join(state, 'journal.jsonl'))
    const second = await runSite(['publish', '--port', '0', ...args(), '--state', state])
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(
      `The publish journal ${join(state, 'journal.jsonl')} is used by another site publish (process ${first.child.pid}): stop it, or give this one a --state folder of its own`,
    )
    expect(await readFile(join(state, 'journal.jsonl'))).toEqual(before)
    first.child.kill('SIGKILL')
    await first.done
    const third = await startPublisher([...args(), '--state', state])
    running.push(third)
    third.child.kill('SIGTERM')
    const end = await third.done
    expect(end, end.stderr).toMatchObject({ code: 0 })
    // a publisher that stopped leaves no lock behind
    await expect(readFile(join(state, 'publish.lock'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('takes over the locks of a publisher killed with -9 that its parent has not reaped yet', async () => {
    const state = join(dir, 'state-zombie')
    // the shell starts the publisher, then becomes `sleep`, which never reaps it: once killed, it stays a zombie
    const parent = spawn(
      'sh',
      ['-c', `"$0" "$@" & echo $!; exec sleep 120`, process.execPath, join(REPO_ROOT, 'bin/site.js'), 'publish'].concat(
        ['--port', '0', ...args(), '--state', state],
      ),
      { cwd: REPO_ROOT, env: { ...process.env, CI: 'true' } },
    )
    try {
      let stdout = ''
      let stderr = ''
      parent.stdout.on('data', (chunk) => (stdout += chunk))
      parent.stderr.on('data', (chunk) => (stderr += chunk))
      await waitUntil(async () => stderr.includes('status at'), 'the first publisher to listen')
      const pid = Number(stdout.trim())
      process.kill(pid, 'SIGKILL')
      const stateOf = async () => (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.[0]
      await waitUntil(async () => (await stateOf()) === 'Z', 'the killed publisher to be a zombie')
      const second = await startPublisher([...args(), '--state', state])
      running.push(second)
      second.child.kill('SIGTERM')
      const end = await second.done
      expect(end, end.stderr).toMatchObject({ code: 0 })
    } finally {
      parent.kill('SIGKILL')
    }
  })

  it('refuses its output folder to a second publisher with a journal of its own, and to site build', async () => {
    // an output folder of its own, which the first publisher builds at start
    const own = join(dir, 'out-held')
    const first = await startPublisher([...args(), '--out', own, '--state', join(dir, 'state-own-1')])
    running.push(first)
    try {
      await waitUntil(settled(first), 'the first publisher idle')
      const before = await readTree(own)
      const inUse = `The output folder ${own} is used by site publish (process ${first.child.pid}): `
      const second = await runSite([
        'publish',
        '--port',
        '0',
        ...args(),
        '--out',
        own,
        '--state',
        join(dir, 'state-own-2'),
      ])
      expect(second.code, second.stderr).toBe(1)
      expect(second.stderr).toContain(`${inUse}stop it, or give this one an output folder of its own`)
      const build = await runSite(['build', '--config', configFile, '--api', api.url, '--out', own, '--json'])
      expect(build.code, build.stderr).toBe(1)
      expect(JSON.parse(build.stdout)).toMatchObject({
        kind: 'OUT_DIR_IN_USE',
        message: expect.stringContaining(inUse),
      })
      expect(diffTrees(before, await readTree(own))).toEqual([])
      // the second publisher's journal is not left locked
      await expect(readFile(join(dir, 'state-own-2', 'publish.lock'))).rejects.toMatchObject({ code: 'ENOENT' })
    } finally {
      first.child.kill('SIGTERM')
    }
    expect(await first.done, 'first publisher').toMatchObject({ code: 0 })
    await expect(readFile(outputLockFile(own, 'publish'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('site publish beside a site build', () => {
  it('refuses the output folder a running site build holds, and leaves it as it was', async () => {
    const own = join(dir, 'out-built')
    expect((await runSite(['build', '--config', configFile, '--api', api.url, '--out', own])).code).toBe(0)
    const before = await readTree(own)
    // a slow API keeps the build running (it holds its lock from its start, before its first request)
    api.setLatency(3_000)
    const build = startSite(['build', '--config', configFile, '--api', api.url, '--out', own])
    try {
      await waitUntil(fileHas(outputLockFile(own, 'build'), `${build.child.pid}\n`), 'the build holding its lock')
      const state = join(dir, 'state-beside-build')
      const started = startSite(['publish', '--port', '0', ...args(), '--out', own, '--state', state])
      // a publisher that started all the same would run on: it is given a minute to exit 1, then stopped
      const stop = setTimeout(() => started.child.kill('SIGKILL'), 60_000)
      const publisher = await started.done.finally(() => clearTimeout(stop))
      expect(publisher.code, publisher.stderr).toBe(1)
      expect(publisher.stderr).toContain(
        `The output folder ${own} is used by site build (process ${build.child.pid}): wait for it to finish, or give this one an output folder of its own`,
      )
      expect(publisher.stderr).not.toContain('Publishing to')
      expect(diffTrees(before, await readTree(own))).toEqual([])
      // the refused publisher leaves neither of its locks behind
      await expect(readFile(outputLockFile(own, 'publish'))).rejects.toMatchObject({ code: 'ENOENT' })
      await expect(readFile(join(state, 'publish.lock'))).rejects.toMatchObject({ code: 'ENOENT' })
    } finally {
      build.child.kill('SIGTERM')
      api.setLatency(0)
    }
    expect((await build.done).code).toBe(143)
    await expect(readFile(outputLockFile(own, 'build'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('site publish whose API fails', () => {
  it("names the failed request in /status and the log without the API's credentials", async () => {
    const down = await startDemoApi({ port: 0, faults: [initialDataFault()] })
    try {
      const apiUrl = new URL(down.url)
      apiUrl.username = 'ci-user'
      apiUrl.password = 'pw-s3cret-9'
      apiUrl.search = '?token=tok-0123456789'
      const publisher = await startPublisher([
        ...args(),
        ...['--api', apiUrl.href, '--out', join(dir, 'out-down'), '--state', join(dir, 'state-down')],
      ])
      running.push(publisher)
      // the output folder holds no site: the publisher builds it all at start, and that build fails
      await waitUntil(async () => (await publisher.status()).publishes[0]?.ok === false, 'a failed publish')
      const { error } = (await publisher.status()).publishes[0]!
      // whichever locale's initial data failed first: /, /pl or /de
      expect(error).toMatch(
        new RegExp(
          `^Initial Data is unavailable: HTTP 500 \\(GET http://\\*\\*\\*@${apiUrl.host.replaceAll('.', '\\.')}/(pl|de)?\\?token=\\*\\*\\*&`,
        ),
      )
      const page = await (await fetch(`${publisher.url}/`)).text()
      publisher.child.kill('SIGTERM')
      const { stderr } = await publisher.done
      for (const text of [error!, page, stderr]) {
        expect(text).toContain('Initial Data is unavailable')
        for (const secret of ['pw-s3cret-9', 'tok-0123456789']) expect(text).not.toContain(secret)
      }
    } finally {
      await down.close()
    }
  })

  it('keeps its journal compacted while every publish fails', async () => {
    const down = await startDemoApi({ port: 0, faults: [initialDataFault()] })
    try {
      const state = join(dir, 'state-outage')
      const publisher = await startPublisher([
        ...args(),
        ...['--api', down.url, '--out', join(dir, 'out-outage'), '--state', state],
      ])
      running.push(publisher)
      await waitUntil(async () => (await publisher.status()).publishes[0]?.ok === false, 'a failed publish')
      // past the pending page cap (a full build), and past the compaction size
      await postManyPages(publisher, '/an-outage')
      const grown = (await stat(join(state, 'journal.jsonl'))).size
      expect(grown).toBeGreaterThan(PUBLISH_COMPACT_BYTES)
      const failures = (await publisher.status()).publishCount
      await waitUntil(
        async () => (await publisher.status()).publishCount.failed > failures.failed,
        'a publish of the events failed',
      )
      await waitUntil(
        async () => (await stat(join(state, 'journal.jsonl'))).size < 1024,
        'the journal compacted to one pending full build',
        60_000,
      )
      const replayed = replayJournal(await readFile(join(state, 'journal.jsonl'), 'utf8'))
      expect(replayed.pending).toMatchObject([{ full: true }])
      publisher.child.kill('SIGTERM')
      expect((await publisher.done).code).toBe(0)
    } finally {
      await down.close()
    }
  })
})

describe('site publish, its journal not compacted', () => {
  it('counts a publish that went live as done, and logs the compaction that failed', async () => {
    const state = join(dir, 'state-no-compaction')
    // a folder where a compaction writes its temporary file: every compaction fails
    await mkdir(join(state, 'journal.jsonl.tmp'), { recursive: true })
    const publisher = await startPublisher([...args(), ...['--out', join(dir, 'out-no-compaction'), '--state', state]])
    running.push(publisher)
    await waitUntil(async () => (await publisher.status()).publishCount.ok === 1, 'the first publish')
    // past the compaction size, as in the outage above, but every publish goes live
    await postManyPages(publisher, '/no-compaction')
    await waitUntil(async () => (await publisher.status()).pending === 0, 'the events published', 60_000)
    const status = await publisher.status()
    expect(status.publishCount.failed, JSON.stringify(status.publishes)).toBe(0)
    expect(status.publishes[0]).toMatchObject({ ok: true })
    // not compacted, and what is in it replays as nothing pending
    const journal = await readFile(join(state, 'journal.jsonl'), 'utf8')
    expect(journal.length).toBeGreaterThan(PUBLISH_COMPACT_BYTES)
    expect(replayJournal(journal).pending).toEqual([])
    publisher.child.kill('SIGTERM')
    const { code, stderr } = await publisher.done
    expect(code).toBe(0)
    expect(stderr).toContain('journal not compacted')
    expect(stderr).not.toContain('failed')
  }, 90_000)
})

describe.skipIf(process.getuid?.() !== 0)('site publish on a full disk (a 64 KiB tmpfs, as root)', () => {
  it('answers 503 and acknowledges nothing while the journal cannot be written, then recovers', async () => {
    const disk = join(dir, 'disk')
    await mkdir(disk)
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk])
    try {
      const state = join(disk, 'state')
      const publisher = await startPublisher([...args(), '--state', state])
      running.push(publisher)
      // fill the disk (the journal file exists, empty)
      await writeFile(join(disk, 'filler'), Buffer.alloc(64 * 1024)).catch(() => {})
      const body = pageMessage(3)
      const answer = await publisher.post('/hooks/typo3', body, typo3Headers(body))
      expect(answer.status).toBe(503)
      expect((await fetch(`${publisher.url}/healthz`)).status).toBe(503)
      expect((await publisher.status()).pending).toBe(0)
      expect(await readFile(join(state, 'journal.jsonl'), 'utf8')).toBe('')

      await rm(join(disk, 'filler'))
      // healthy again before any webhook: a proxy that stopped sending on 503 would send none
      expect((await fetch(`${publisher.url}/healthz`)).status).toBe(200)
      expect((await publisher.post('/hooks/typo3', body, typo3Headers(body))).status).toBe(202)
      publisher.child.kill('SIGTERM')
      expect((await publisher.done).code).toBe(0)
    } finally {
      execFileSync('umount', [disk])
    }
  })
})
