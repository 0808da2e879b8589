/**
 * Pure: the build manifests the client polls (SPEC point 7): `_site/builds/latest.json`
 * = `{ id, timestamp }` and `_site/builds/meta/<id>.json` = `{ id, timestamp, prerendered }`.
 * They are the only files whose bytes change between two builds of the same content.
 */
import { buildMetaFile, LATEST_MANIFEST_FILE } from '../shared/layout.js'
import type { BuildManifest } from './types.js'

const sortUnique = (paths: Iterable<string>): string[] => [...new Set(paths)].sort()

/** The manifest of a build; `prerendered` sorted and de-duplicated. */
export const createManifest = (options: {
  id: string
  timestamp: number
  prerendered: Iterable<string>
}): BuildManifest => ({
  id: options.id,
  timestamp: options.timestamp,
  prerendered: sortUnique(options.prerendered),
})

/** The two manifest files, paths relative to the output folder. */
export function renderManifestFiles(manifest: BuildManifest): Array<{ path: string; contents: string }> {
  const latest = { id: manifest.id, timestamp: manifest.timestamp }
  return [
    { path: LATEST_MANIFEST_FILE, contents: `${JSON.stringify(latest)}\n` },
    { path: buildMetaFile(manifest.id), contents: `${JSON.stringify(manifest)}\n` },
  ]
}
