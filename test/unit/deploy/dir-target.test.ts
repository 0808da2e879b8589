import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDeployTarget } from '../../../src/deploy/targets/index.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('a dir: deploy target', () => {
  // `site deploy dir:public` wrote the whole site into the project's public/, which every later build copies from
  it("refuses the project's public/ folder, or one inside it, as it refuses them as an output folder", async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-dir-target-'))
    dirs.push(root)
    const outDir = join(root, '.output/public')
    for (const target of [join(root, 'public'), join(root, 'public/www')])
      await expect(createDeployTarget(`dir:${target}`, { outDir, root }), target).rejects.toThrow(
        `Refusing to deploy into ${target}: it is inside public/, which the build copies from`,
      )
    expect(await readdir(root)).toEqual([])
    await expect(createDeployTarget(`dir:${join(root, 'www')}`, { outDir, root })).resolves.toBeDefined()
  })
})
