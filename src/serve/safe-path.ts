import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { isInsideOrEqual } from '../project/inside.js'

// Control characters, backslash: never part of a served file name.
const FORBIDDEN_RE = /[\u0000-\u001f\u007f\\]/
// A drive letter (`c:`) alone never is; on Windows no colon is (drive letters, streams). Elsewhere a colon is a
// character of a file name as of a URL path, and a build writes the page of a slug `/a:b` to `a:b/index.html`.
const DRIVE_RE = /^[a-z]:$/i

/**
 * Decoded segments of a URL pathname, or undefined when the path could reach
 * outside its folder or is malformed: `..`, `.`, encoded slashes, NUL,
 * backslashes, bad percent-encoding, a drive letter (any colon on Windows).
 * Example: `/pl/%C3%BCber/` -> ['pl', 'über'];  `/a/%2e%2e/b` -> undefined.
 */
export function toSafeSegments(pathname: string, platform: string = process.platform): string[] | undefined {
  if (!pathname.startsWith('/') || /%2f|%5c|%00/i.test(pathname)) return undefined
  const segments: string[] = []
  for (const raw of pathname.split('/')) {
    if (raw === '') continue
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    if (segment === '.' || segment === '..' || FORBIDDEN_RE.test(segment) || DRIVE_RE.test(segment)) return undefined
    if (platform === 'win32' && segment.includes(':')) return undefined
    segments.push(segment)
  }
  return segments
}

/** Joins safe segments under `root`; undefined when the result is not inside it. */
export function joinInside(root: string, segments: readonly string[]): string | undefined {
  const file = join(root, ...segments)
  return isInsideOrEqual(root, file) ? file : undefined
}

/** Resolves symbolic links and checks again that the real file stays inside the real root. */
export async function isReallyInside(realRoot: string, file: string): Promise<boolean> {
  try {
    return isInsideOrEqual(realRoot, await realpath(file))
  } catch {
    return false
  }
}
