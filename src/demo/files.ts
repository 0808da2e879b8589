/**
 * The demo API's static files (images, PDFs under `<contentDir>/fileadmin`).
 * Only files listed at start-up can be served: a request path is a key into that
 * index, never joined onto a directory, so no path can reach outside the folder.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
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
  /** Sent as `Last-Modified` (the file's modification time when unset). */
  lastModified?: Date
}

/**
 * The answer to a file request, as a CMS's web server gives it: `ETag` (of the bytes) and `Last-Modified`,
 * and `304 Not Modified` with no body when the request's `If-None-Match` or `If-Modified-Since` still holds.
 */
export async function answerFile(
  file: DemoFile,
  request: { ifNoneMatch?: string; ifModifiedSince?: string },
): Promise<{ status: 200 | 304; body: Buffer; headers: Record<string, string> }> {
  const [body, info] = await Promise.all([readFile(file.absolutePath), stat(file.absolutePath)])
  const modified = file.lastModified ?? info.mtime
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  const lastModified = new Date(Math.floor(modified.getTime() / 1000) * 1000).toUTCString()
  const headers = { etag, 'last-modified': lastModified }
  const since = request.ifModifiedSince ? Date.parse(request.ifModifiedSince) : Number.NaN
  const unchanged =
    request.ifNoneMatch !== undefined
      ? request.ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}`)
      : !Number.isNaN(since) && Date.parse(lastModified) <= since
  return unchanged ? { status: 304, body: Buffer.alloc(0), headers } : { status: 200, body, headers }
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

function contentTypeOf(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  return CONTENT_TYPES[extension] ?? 'application/octet-stream'
}
