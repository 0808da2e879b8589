import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parse, resolve } from 'node:path'
import { SiteError } from '../errors.js'
import { realPath } from '../project/inside.js'
import { createStaticHandler } from './handler.js'
import { refuseConnect, toNodeListener } from './node-http.js'

export interface StaticServerOptions {
  /** The built output folder (`build.outDir`). */
  dir: string
  host: string
  /** 0 picks a free port. */
  port: number
  /** Where unexpected errors are reported, one line each; stderr by default. */
  log?: (line: string) => void
}

export interface RunningServer {
  /** `http://host:port` (no trailing slash). */
  url: string
  close(): Promise<void>
}

/** What a failed listen says to the user: a port in use, or a --host this machine has not, as a usage error. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new SiteError('USAGE', `Port ${port} on ${host} is already in use; pass --port N`, { cause: error })
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EADDRNOTAVAIL')
    return new SiteError('USAGE', `--host ${host}: no address of this machine (${error.code})`, { cause: error })
  return error
}

/** Listens on host:port; a port in use or a host it cannot listen on becomes a usage error naming it. */
export async function listen(server: Server, host: string, port: number): Promise<string> {
  // node takes an empty host for none: every interface, where the user meant some address (`--host "$HOST"`)
  if (host === '')
    throw new SiteError(
      'USAGE',
      "--host '': an empty address would listen on every interface; name one (127.0.0.1, or 0.0.0.0 for all)",
    )
  await new Promise<void>((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => fail(listenError(error, host, port)))
    server.listen(port, host, () => done())
  })
  const { address, port: bound } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`
}

/** Stops accepting connections and ends open ones (keep-alive sockets, event streams). */
export async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()))
  server.closeAllConnections()
  await closed
}

/** `site serve`: a built output served as a static host would (see `createStaticHandler`). */
export async function startStaticServer(options: StaticServerOptions): Promise<RunningServer> {
  const dir = resolve(options.dir)
  // every file of the machine its user may read would be served (a `site serve /` meant as `site serve .`), also
  // through a link to the root
  const real = realPath(dir)
  if (real === parse(real).root)
    throw new SiteError('USAGE', `Refusing to serve ${dir}: the folder to serve cannot be a file-system root`)
  const info = await stat(dir).catch(() => undefined)
  if (info && !info.isDirectory())
    throw new SiteError('USAGE', `Cannot serve ${dir}: it is a file, not a folder (pass the output folder to serve)`)
  if (!info)
    throw new SiteError('USAGE', `Folder not found: ${dir} (run \`site build\` first, or pass the folder to serve)`)
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const server = createServer(
    toNodeListener(createStaticHandler({ dir }), (error) => log(`serve: ${(error as Error).message}`)),
  )
  refuseConnect(server)
  const url = await listen(server, options.host, options.port)
  return { url, close: () => closeServer(server) }
}
