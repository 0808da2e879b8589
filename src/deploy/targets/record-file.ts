/**
 * A deploy record kept as a file (a folder target's, a command target's in the project cache), read back as
 * untrusted: a previous deploy, or anyone since, may have left anything in its place.
 */
import { lstat } from 'node:fs/promises'
import { readRegularFile } from '../../project/untrusted-file.js'
import { DEPLOY_RECORD_MAX_BYTES } from '../../shared/constants.js'

/**
 * The record's text; undefined when there is none. Read as a regular file of at most DEPLOY_RECORD_MAX_BYTES,
 * never through a link nor waiting for a FIFO's writer: anything else there (a FIFO, a link, a folder, a huge
 * file) reads as '', a record that is not one, which the deploy plans with as with a corrupt one. Rejects with
 * the file system's error when the record's place cannot be looked at (a file where its folder should be).
 */
export async function readRecordFile(file: string): Promise<string | undefined> {
  const read = await readRegularFile(file, DEPLOY_RECORD_MAX_BYTES)
  if (read.type === 'read') return read.bytes.toString('utf8')
  const there = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  return there ? '' : undefined
}
