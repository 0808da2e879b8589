import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** More files than this in `public/` is a mistake (a build output copied in); the rest is not served. */
const MAX_PUBLIC_FILES = 10_000

/**
 * Lists `public/` once per (re)load: preview serves only files of this list,
 * so no request path can reach outside the folder. Dot files and symbolic
 * links are left out. Keys are decoded relative paths with `/`: `icons/a b.png`.
 */
export async function listPublicFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  async function walk(folder: string, prefix: string): Promise<void> {
    let names: string[]
    try {
      names = await readdir(folder)
    } catch {
      return
    }
    for (const name of names.sort()) {
      if (name.startsWith('.') || files.size >= MAX_PUBLIC_FILES) continue
      const file = join(folder, name)
      const info = await lstat(file)
      if (info.isDirectory()) await walk(file, `${prefix}${name}/`)
      else if (info.isFile()) files.set(`${prefix}${name}`, file)
    }
  }
  await walk(dir, '')
  return files
}
