/**
 * A module the engine made (a bundled config file or templates registry), put where Node can import it: in the
 * project's cache, under a name per content. A file already there is kept only when it holds this very code
 * (the cache folder is untrusted input); otherwise the code is written aside and renamed into place, so that
 * a build, render worker or test importing the same module at the same time never reads half a file.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readRegularFile } from './untrusted-file.js'

export async function placeModule(file: string, code: string): Promise<void> {
  const found = await readRegularFile(file, Buffer.byteLength(code))
  if (found.type === 'read' && found.bytes.toString('utf8') === code) return
  await mkdir(dirname(file), { recursive: true })
  const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(partial, code)
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
}
