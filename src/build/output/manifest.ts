/**
 * Pure: the build manifests the client polls (SPEC point 7) and the ids in them.
 * `_site/builds/latest.json` = `{ id, clientVersion }`, `_site/builds/meta/<id>.json` =
 * `{ id, clientVersion, prerendered }`. Nothing in them comes from the clock or chance:
 * a build's id is a digest of the files it output and the client version a digest of
 * the client bundle, so two builds of the same content write the same manifests.
 */
import { createHash } from 'node:crypto'
import { BUILDS_DIR, buildMetaFile, LATEST_MANIFEST_FILE } from '../../shared/layout.js'
import { compareStrings } from '../../shared/values.js'
import type { BuildManifest } from '../types.js'

const sortUnique = (paths: Iterable<string>): string[] => [...new Set(paths)].sort()

/**
 * The version of the client code: a digest of the client bundle's file names, which are
 * content-hashed (`_site/assets/entry-AB12CD.js`). Changes when a template, a text, the
 * styles or the engine's client code changes; builds that change only content keep it.
 */
export function clientVersionOf(files: ReadonlyArray<{ path: string }>): string {
  const names = files.map((f) => f.path).sort(compareStrings)
  return createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12)
}

/**
 * A build's id, derived from what it built: a digest of every file of its output (path and
 * content hash, sorted by path), the manifests left out. Example: the same API data, templates
 * and config give the same id; one changed page gives another.
 */
export function buildIdOf(outputs: ReadonlyMap<string, string>): string {
  const digest = createHash('sha256')
  // The default sort orders strings by UTF-16 code units, as compareStrings does, without a call per
  // comparison; the lines go to the digest in chunks, not one call each (90,000 at 30,000 pages).
  let chunk = ''
  for (const path of [...outputs.keys()].sort()) {
    // the manifests' own folder is left out of the id (the manifests name it)
    if (path.startsWith(`${BUILDS_DIR}/`)) continue
    chunk += `${path}\0${outputs.get(path)}\n`
    if (chunk.length >= 65_536) {
      digest.update(chunk)
      chunk = ''
    }
  }
  return digest.update(chunk).digest('hex').slice(0, 16)
}

/** The manifest of a build; `prerendered` sorted and de-duplicated. */
export const createManifest = (options: {
  id: string
  clientVersion: string
  prerendered: Iterable<string>
}): BuildManifest => ({
  id: options.id,
  clientVersion: options.clientVersion,
  prerendered: sortUnique(options.prerendered),
})

/** The two manifest files, paths relative to the output folder. */
export function renderManifestFiles(manifest: BuildManifest): Array<{ path: string; contents: string }> {
  const latest = { id: manifest.id, clientVersion: manifest.clientVersion }
  return [
    { path: LATEST_MANIFEST_FILE, contents: `${JSON.stringify(latest)}\n` },
    { path: buildMetaFile(manifest.id), contents: `${JSON.stringify(manifest)}\n` },
  ]
}
