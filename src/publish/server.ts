/**
 * `site publish`: opens the journal, starts the publisher and binds its routes (handler.ts) to
 * node:http. A body over PUBLISH_MAX_BODY_BYTES is answered 413 without being read further, one past
 * PUBLISH_MAX_READING_BYTES of bodies being read 503.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join, resolve } from 'node:path'
import { checkOutDir, checkOutDirContents } from '../build/output/output.js'
import { otherSitesOf, outDirOf } from '../config/resolve.js'
import type { ResolvedConfig, ResolvedPublish, ResolvedSite } from '../config/types.js'
import { createDeployTarget } from '../deploy/targets/index.js'
import { errors } from '../errors.js'
import { scanTemplates } from '../hydration/manifest.js'
import { isInsideOrEqual, realPath } from '../project/inside.js'
import type { RenderWatch } from '../render/renderer.js'
import { refuseConnect } from '../serve/node-http.js'
import { listen } from '../serve/server.js'
import {
  PUBLISH_MAX_BODY_BYTES,
  PUBLISH_MAX_CONNECTIONS,
  PUBLISH_MAX_DISCARD_BYTES,
  PUBLISH_MAX_READING_BYTES,
  PUBLISH_REQUEST_TIMEOUT_MS,
} from '../shared/constants.js'
import { CACHE_DIR } from '../shared/layout.js'
import { type Builder, createBuilder } from './builder.js'
import { createHookHandler, type HookBody, type HookRequest, reachableHooks, shownUrl } from './handler.js'
import { type Journal, openJournal } from './journal.js'
import { lockJournal, lockPublishOutput } from './lock.js'
import { createPublisher, type Publisher } from './publisher.js'
import { loadSchedule } from './schedule.js'

export interface PublishServerOptions {
  config: ResolvedConfig
  site: ResolvedSite
  publish: ResolvedPublish
  host: string
  port: number
  /** Folder of the journal. @default `.site/publish/<digest of the output folder>` under the project root */
  stateDir?: string
  /** @default a builder that runs build() each time */
  builder?: Builder
  log: (line: string) => void
  /**
   * Runs each render of the server's own thread (`build.renderThreads: 0`), for a thread that can end this one
   * (`site publish` runs the server in a worker its main thread watches, publish-host.ts).
   */
  renderWatch?: RenderWatch
}

export interface PublishServer {
  url: string
  publisher: Publisher
  stateDir: string
  /** Where its builds go: the deploy target by its name (a folder's path made absolute), or the output folder. */
  where: string
  /** The webhook paths a request can pass (reachableHooks). */
  hooks: string[]
  /** Stops accepting, stops or finishes the publish in progress, closes the journal. */
  close(): Promise<void>
}

/** The default journal folder: one per output folder, under the project's cache folder. */
const defaultStateDir = (root: string, outDir: string): string =>
  join(root, CACHE_DIR, 'publish', createHash('sha256').update(resolve(outDir)).digest('hex').slice(0, 16))

/** Bytes of webhook bodies held while they are read, across the connections of one server. */
interface Reading {
  bytes: number
}

/**
 * The body; 'too large' when it is larger than allowed, 'busy' when the bodies being read would then hold more than
 * PUBLISH_MAX_READING_BYTES (a body is counted from its declared length, or as it comes). The rest of a body a
 * little too large is read and dropped before the answer, so that the client, still sending, reads its 413 rather
 * than a reset connection; one larger than PUBLISH_MAX_DISCARD_BYTES is not read further. A client that waits for
 * `100 Continue` (`waiting`, its answer) is sent it only for a body it declares within the limits: else it reads
 * its refusal before it sends a byte.
 */
function readBody(req: IncomingMessage, reading: Reading, waiting?: ServerResponse): Promise<HookBody> {
  const declared = Number(req.headers['content-length'])
  if (declared > (waiting ? PUBLISH_MAX_BODY_BYTES : PUBLISH_MAX_DISCARD_BYTES)) return Promise.resolve('too large')
  // a body that will be dropped (over the limit) holds nothing
  let held = declared <= PUBLISH_MAX_BODY_BYTES ? declared : 0
  if (reading.bytes + held > PUBLISH_MAX_READING_BYTES) return Promise.resolve('busy')
  reading.bytes += held
  const release = () => {
    reading.bytes -= held
    held = 0
  }
  waiting?.writeContinue()
  return new Promise((done, fail) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = (why: HookBody) => {
      release()
      req.pause()
      done(why)
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= PUBLISH_MAX_BODY_BYTES) {
        // a body of no declared length (chunked) is counted as it comes
        if (size > held && reading.bytes + size - held > PUBLISH_MAX_READING_BYTES) return stop('busy')
        reading.bytes += Math.max(0, size - held)
        held = Math.max(held, size)
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      release()
      if (size > PUBLISH_MAX_DISCARD_BYTES) stop('too large')
    })
    req.on('end', () => {
      release()
      done(size > PUBLISH_MAX_BODY_BYTES ? 'too large' : Buffer.concat(chunks))
    })
    req.on('close', release)
    req.on('error', (error) => {
      release()
      fail(error)
    })
  })
}

export async function startPublishServer(options: PublishServerOptions): Promise<PublishServer> {
  const { config, site, publish, log } = options
  // checked here, not by the config's validation: other commands read the config without these secrets
  const unset = publish.webhooks.findIndex((webhook) => webhook.secret === '')
  if (unset >= 0)
    throw errors.configInvalid(config.configFile, [
      {
        path: `publish.webhooks[${unset}].secret`,
        message: `empty for webhook ${publish.webhooks[unset]!.identifier}: set the secret TYPO3 showed for it (is its variable set for site publish?)`,
      },
    ])
  if (publish.token === '')
    throw errors.configInvalid(config.configFile, [
      { path: 'publish.token', message: 'empty: set a token, or leave it out (is its variable set for site publish?)' },
    ])
  const outDir = outDirOf(config.root, site)
  const stateDir = options.stateDir ?? defaultStateDir(config.root, outDir)
  // each build replaces the output folder: a journal inside it would be gone after the first publish
  if (isInsideOrEqual(realPath(resolve(outDir)), realPath(resolve(stateDir))))
    throw errors.usage(
      `The state folder ${resolve(stateDir)} is inside the output folder ${resolve(outDir)}, which every build replaces: give --state a folder outside it`,
    )
  // nor in public/: every build would copy the journal into the site, and a deploy put it on the web
  if (isInsideOrEqual(realPath(join(config.root, 'public')), realPath(resolve(stateDir))))
    throw errors.usage(
      `The state folder ${resolve(stateDir)} is inside public/, which every build copies into the site: give --state a folder outside it`,
    )
  // an output folder no build may replace (a file, another folder's files) is refused now, as site build does,
  // not by every build the publisher would retry for ever
  checkOutDir(outDir, config.root)
  // so are templates missing a file every build needs (a publisher started in the wrong folder)
  await scanTemplates(config.root)
  const contents = await checkOutDirContents(outDir)
  const target = publish.deploy
    ? await createDeployTarget(publish.deploy, { outDir, root: config.root, otherSites: otherSitesOf(config, site) })
    : undefined
  const builder =
    options.builder ??
    createBuilder({
      ...{ config, site, logger: { info: () => {}, warn: (line: string) => log(`build: ${line}`) } },
      ...(options.renderWatch ? { renderWatch: options.renderWatch } : {}),
    })
  const { publisher, record, start } = createPublisher({
    site: site.hostnames[0] ?? site.baseUrl ?? 'site',
    outDir,
    options: publish,
    builder,
    target,
    siteOptions: site,
    log,
    reconcileAtStart: contents !== 'site-output',
    stateDir,
    root: config.root,
  })
  const unlockJournal = await lockJournal(stateDir)
  const unlockOutput = await lockPublishOutput(outDir).catch(async (error: unknown) => {
    await unlockJournal()
    throw error
  })
  const unlock = async () => {
    await unlockOutput()
    await unlockJournal()
  }
  try {
    const where = target?.name ?? resolve(outDir)
    return await serve({
      ...options,
      stateDir,
      where,
      publisher,
      start,
      journal: await openJournal(stateDir, record),
      unlock,
    })
  } catch (error) {
    await unlock()
    throw error
  }
}

/** Binds the publisher's routes to node:http on the host and port asked, and starts the publisher. */
async function serve(
  input: PublishServerOptions & {
    stateDir: string
    where: string
    publisher: Publisher
    start: ReturnType<typeof createPublisher>['start']
    journal: Journal
    unlock: () => Promise<void>
  },
): Promise<PublishServer> {
  const { publisher, publish, log, stateDir, journal } = input
  const handle = createHookHandler({ publisher, options: publish, log })
  const reading: Reading = { bytes: 0 }

  // node checks requestTimeout and headersTimeout (below) only every connectionsCheckingInterval, 30 s by default,
  // which let a dribbling client hold its connection up to 40 s: checked each second, it is cut within a second
  const connectionsCheckingInterval = 1_000
  const respond = async (req: IncomingMessage, res: ServerResponse, waiting: boolean) => {
    try {
      let body: HookBody | undefined
      const request: HookRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: async () => {
          body = req.method === 'POST' ? await readBody(req, reading, waiting ? res : undefined) : Buffer.alloc(0)
          return body
        },
      }
      const answer = await handle(request)
      // after a body refused unread the connection is not used again (its rest may be unread), nor by a client that
      // waited for 100 Continue and was answered without it (it may send its body yet); a body never asked for is
      // read to its end and dropped by node
      if (typeof body === 'string' || (body === undefined && waiting)) answer.headers.connection = 'close'
      res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.body)
    } catch (error) {
      // the client went away, or was too slow and answered 408 by node, before its body ended: no refusal of ours
      if (req.errored)
        return log(
          `${shownUrl(req.url ?? '/')}: the request ended before its body did (${req.errored.message}): nothing queued`,
        )
      log(`500 ${shownUrl(req.url ?? '/')}: ${(error as Error).message}`)
      if (!res.headersSent) res.writeHead(500).end()
    }
  }
  const server = createServer({ connectionsCheckingInterval }, (req, res) => respond(req, res, false))
  // `Expect: 100-continue` (curl sends it for any body over 1 MB): node no longer answers it by itself
  server.on('checkContinue', (req, res) => respond(req, res, true))
  // a webhook is a small body on a fast network: a client that dribbles it is cut off
  server.requestTimeout = PUBLISH_REQUEST_TIMEOUT_MS
  server.headersTimeout = PUBLISH_REQUEST_TIMEOUT_MS
  server.maxConnections = PUBLISH_MAX_CONNECTIONS
  // the webhooks are POST, /healthz and /status GET
  refuseConnect(server, 'GET, HEAD, POST')
  // a port in use or a --host this machine has not is a usage error naming it, as for site serve and preview
  const url = await listen(server, input.host, input.port)
  input.start(journal, await loadSchedule(stateDir))
  return {
    url,
    publisher,
    stateDir,
    where: input.where,
    hooks: reachableHooks(publish),
    async close() {
      const closed = new Promise<void>((done) => server.close(() => done()))
      server.closeIdleConnections()
      await publisher.stop()
      server.closeAllConnections()
      await closed
      await input.unlock()
    },
  }
}
