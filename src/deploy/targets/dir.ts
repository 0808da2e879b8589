/**
 * `dir:PATH`: a folder a web server serves. Each file is copied to a temporary name beside its place,
 * then renamed over it, so that the server never sends half a file. The manifest is `PATH/.site-deploy.json`.
 */
import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileStamp } from '../../build/incremental/disk.js'
import { resolveInside } from '../../build/output/write.js'
import { errors } from '../../errors.js'
import { type DeployTarget, TARGET_MANIFEST_FILE } from './types.js'

const isWithin = (parent: string, child: string): boolean => {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

const tempName = (dest: string): string => `${dest}.site-tmp-${process.pid}-${randomBytes(4).toString('hex')}`

async function replaceFile(dest: string, write: (temp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(dest), { recursive: true })
  const temp = tempName(dest)
  try {
    await write(temp)
    await rename(temp, dest)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

export function createDirTarget(path: string, outDir: string): DeployTarget {
  const root = resolve(path)
  const name = `dir:${root}`
  if (isWithin(root, resolve(outDir)) || isWithin(resolve(outDir), root))
    throw errors.usage(`The deploy folder ${root} and the output folder ${resolve(outDir)} may not hold one another`)
  const manifestFile = join(root, TARGET_MANIFEST_FILE)
  return {
    name,
    async readManifest() {
      const text = await readFile(manifestFile, 'utf8').catch(() => undefined)
      if (text === undefined) return undefined
      try {
        return JSON.parse(text) as unknown
      } catch {
        return undefined
      }
    },
    manifestStamp: async () => fileStamp(manifestFile),
    upload: (file) => replaceFile(resolveInside(root, file.path), (temp) => copyFile(file.source, temp)),
    remove: (file) => rm(resolveInside(root, file), { force: true }),
    commit: async () => {},
    async writeManifest(json) {
      await replaceFile(manifestFile, (temp) => writeFile(temp, json))
      return fileStamp(manifestFile)
    },
    close: async () => {},
  }
}
