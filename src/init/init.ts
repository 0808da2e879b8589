/**
 * `site init [dir]`: a new site project, from the engine's demo site and scaffold/. Checks the folder
 * first (target.ts), lists the files (files.ts), writes them (write.ts).
 */
import { resolve } from 'node:path'
import { errors } from '../errors.js'
import { listScaffoldFiles } from './files.js'
import { checkInitTarget } from './target.js'
import { writeScaffold } from './write.js'

export interface InitOptions {
  /** The new project's folder, relative to `cwd`. */
  dir: string
  cwd?: string
  /** Content API origin written to `api.baseUrl`; the bundled demo API when undefined. */
  apiUrl?: string
  /** Write into a folder that is not empty, replacing files of the same name. */
  force?: boolean
  /** The engine's package root. @default the root of the running engine */
  engineRoot?: string
  /**
   * Stops the writing (the CLI aborts it on SIGINT and SIGTERM): what was created is removed, and it rejects with
   * the reason.
   */
  signal?: AbortSignal
}

export interface InitResult {
  /** The project's folder, absolute. */
  dir: string
  /** The files written, relative to `dir`. */
  files: string[]
}

/**
 * `https://cms.example.com/` -> `https://cms.example.com`; anything but an http(s) URL is refused, naming it as
 * `name` (the flag, or the answer to init's prompt).
 */
export function checkApiUrl(value: string, name = '--api'): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw errors.usage(`${name} must be the content API's URL (http or https), got ${JSON.stringify(value)}`)
  }
  // first: the messages below repeat the value
  if (url.username || url.password)
    throw errors.usage(
      `${name} must not hold a user or password: config/site.config.ts is committed with the project; give the API's credentials from the environment (api.headers, see the configuration docs)`,
    )
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw errors.usage(`${name} must be an http or https URL, got ${JSON.stringify(value)}`)
  if (url.hash) throw errors.usage(`${name} must not end in a fragment (${url.hash}): request paths are appended to it`)
  return url.href.replace(/\/$/, '')
}

/** Creates a site project in `options.dir`; throws a SiteError naming the path when it may not. */
export async function initProject(options: InitOptions): Promise<InitResult> {
  // not process.cwd() for an absolute dir: `site init /srv/new-site` works in a folder removed since
  const dir = options.cwd === undefined ? resolve(options.dir) : resolve(options.cwd, options.dir)
  const force = options.force === true
  const apiUrl = options.apiUrl === undefined ? undefined : checkApiUrl(options.apiUrl)
  await checkInitTarget(dir, { force })
  const files = await listScaffoldFiles({ dir, apiUrl, engineRoot: options.engineRoot })
  await writeScaffold(dir, files, { force, signal: options.signal })
  return { dir, files: files.map((file) => file.path) }
}
