/**
 * The demo API's static files (images, PDFs under `<contentDir>/fileadmin`).
 * Only files listed at start-up can be served: a request path is a key into that
 * index, never joined onto a directory, so no path can reach outside the folder.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
}

export interface DemoFile {
  absolutePath: string
  contentType: string
}

/** URL path (`/fileadmin/images/a.svg`) -> file on disk; regular files only, symlinks skipped. */
export async function indexDemoFiles(contentDir: string, folder = 'fileadmin'): Promise<Map<string, DemoFile>> {
  const index = new Map<string, DemoFile>()
  const walk = async (dir: string, urlPath: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const absolutePath = join(dir, entry.name)
      const entryUrl = `${urlPath}/${entry.name}`
      if (entry.isDirectory()) await walk(absolutePath, entryUrl)
      else if (entry.isFile()) index.set(entryUrl, { absolutePath, contentType: contentTypeOf(entry.name) })
    }
  }
  await walk(join(contentDir, folder), `/${folder}`)
  return index
}

export function contentTypeOf(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  return CONTENT_TYPES[extension] ?? 'application/octet-stream'
}
