/**
 * A module the engine made (a bundled config file or templates registry), put where Node can import it: in the
 * project's cache, under a name per content. A file already there is kept only when it holds this very code
 * (the cache folder is untrusted input); otherwise the code is written aside and renamed into place, so that
 * a build, render worker or test importing the same module at the same time never reads half a file.
 */
import { randomBytes } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writingFailed } from '../errors.js'
import { makeFolders } from './folders.js'
import { readRegularFile } from './untrusted-file.js'

/**
 * A cache that cannot be written (a full disk, a read-only one) fails naming the module: Node's errors name no file
 * for a write, and its recursive mkdir answers ENOENT for a read-only file system (or retries for ever: folders.ts).
 */
export async function placeModule(file: string, code: string): Promise<void> {
  const found = await readRegularFile(file, Buffer.byteLength(code))
  if (found.type === 'read' && found.bytes.toString('utf8') === code) return
  try {
    await makeFolders(dirname(file))
    await writeAtomically(file, code)
  } catch (error) {
    throw writingFailed(file, error)
  }
}

/**
 * Writes under a random temporary name beside `file`, then renames: a reader sees the old file or the new one.
 * A folder in the file's place (the cache is untrusted input) holds nothing of ours: it is removed first.
 */
export async function writeAtomically(file: string, contents: string | Uint8Array): Promise<void> {
  const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(partial, contents)
    await rename(partial, file).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EISDIR') throw error
      await rm(file, { recursive: true, force: true })
      await rename(partial, file)
    })
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
}
