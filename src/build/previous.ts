/**
 * The previous output as a build finds it in OUT: its build store (store.ts), read and
 * checked once, or why there is none to use. What a build reuses depends on what it finds:
 * a store of this format lets it keep unchanged files, carry slug history and keep the
 * assets of earlier builds; `--only` also needs the same engine and config (previous
 * pages are rendered again from their payloads, see reuse.ts).
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ResolvedSite } from '../config/types.js'
import { BUILD_STORE_FILE, LATEST_MANIFEST_FILE, PAYLOAD_FILE } from '../shared/layout.js'
import { normalizePagePath, toHtmlFile, toPayloadFile } from '../shared/url.js'
import type { OutDirContents } from './output.js'
import type { PageTable, StringPool } from './page-table.js'
import { configDigest, engineId, parseStore, type StoredRedirect, type StoreHead } from './store.js'
import { hashContents, resolveInside } from './write.js'

export interface PreviousOutput {
  store: StoreHead
  pages: PageTable
  redirects: Map<string, StoredRedirect>
  /** The content hash of a file of the previous output (the store itself included); undefined for one it has not. */
  hashOf(path: string): string | undefined
  /** Every file of the previous output. */
  filePaths(): Iterable<string>
}

/** The page whose `index.html` (0) or `_payload.json` (1) a file is: 'pl/o-nas/index.html' -> ['/pl/o-nas', 0]. */
export function pageOfFile(file: string): [path: string, which: 0 | 1] | undefined {
  const name = file.endsWith(PAYLOAD_FILE) ? PAYLOAD_FILE : file.endsWith('index.html') ? 'index.html' : undefined
  if (!name || (file !== name && !file.endsWith(`/${name}`))) return undefined
  const path = normalizePagePath(file === name ? '/' : `/${file.slice(0, -name.length - 1)}`)
  return path.ok ? [path.path, name === PAYLOAD_FILE ? 1 : 0] : undefined
}

export type PreviousLookup = { type: 'found'; previous: PreviousOutput } | { type: 'none'; reason: string }

/** The engine folders whose code shapes what a build writes. */
const ENGINE_DIRS = ['api', 'build', 'hydration', 'render', 'runtime', 'shared']
const ENGINE_FILE_RE = /\.(?:js|ts|tsx)$/

/**
 * The running engine's identity: site's version plus a digest of its own code (src/ or dist/),
 * so that page data prepared by other engine code is never reused, released or not.
 */
export function currentEngine(): string {
  const root = fileURLToPath(new URL('../', import.meta.url))
  const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version
  const hash = createHash('sha256')
  for (const dir of ENGINE_DIRS) {
    const names = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    for (const name of names.filter((n) => ENGINE_FILE_RE.test(n)).sort()) {
      hash.update(`${dir}/${name}\0`)
      hash.update(readFileSync(join(root, dir, name)))
    }
  }
  return engineId(version, hash.digest('hex').slice(0, 12))
}

/**
 * Why the previous output's pages and derived files cannot be taken as this build's own: another engine
 * wrote them, or another configuration; undefined when they can (see planOnly and writeSiteFiles).
 */
export function otherBuilder(previous: PreviousOutput, engine: string, site: ResolvedSite): string | undefined {
  if (previous.store.engine !== engine) return 'the previous output was built by another version of site'
  if (previous.store.config !== configDigest(site))
    return 'the configuration (site, API or options) changed since the previous build'
  return undefined
}

const readText = (path: string): Promise<string | undefined> => readFile(path, 'utf8').catch(() => undefined)

function readLatestId(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as { id?: unknown }).id
  } catch {
    return undefined
  }
}

/**
 * Reads the previous output's build store, when OUT holds a previous output (see inspectOutDir),
 * its paths as `pool`'s strings.
 */
export async function loadPrevious(
  outDir: string,
  contents: OutDirContents,
  pool?: StringPool,
): Promise<PreviousLookup> {
  if (contents === 'missing' || contents === 'empty') return { type: 'none', reason: 'there is no previous output' }
  if (contents === 'other') return { type: 'none', reason: 'the output folder held no previous site output' }
  // read as bytes and parsed line by line: never the whole text as one string beside the pages
  const bytes = await readFile(resolveInside(outDir, BUILD_STORE_FILE)).catch(() => undefined)
  if (bytes === undefined)
    return {
      type: 'none',
      reason: `the previous output has no ${BUILD_STORE_FILE} (an older site wrote it, or its build stopped while replacing files)`,
    }
  const storeHash = hashContents(bytes)
  const parsed = parseStore(bytes, pool)
  if ('reason' in parsed) return { type: 'none', reason: `the previous output is not usable: ${parsed.reason}` }
  const { pages, files, ...store } = parsed.store
  const latest = await readText(resolveInside(outDir, LATEST_MANIFEST_FILE))
  if (readLatestId(latest) !== store.id)
    return { type: 'none', reason: `the previous output's ${LATEST_MANIFEST_FILE} names another build than its state` }
  return {
    type: 'found',
    previous: {
      store,
      pages,
      redirects: new Map(store.redirects.map((r) => [r.from, r])),
      hashOf(path) {
        const page = pageOfFile(path)
        if (page && pages.has(page[0])) return pages.fileHash(page[0], page[1])
        return path === BUILD_STORE_FILE ? storeHash : files.get(path)
      },
      *filePaths() {
        for (const path of pages.paths()) yield* [toHtmlFile(path), toPayloadFile(path)]
        yield* files.keys()
        yield BUILD_STORE_FILE
      },
    },
  }
}
