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

  // a deploy into templates/ or config/ left a site's HTML and JavaScript among the files the next build reads
  it("refuses the project's templates/, config/ and .site/ folders, as it refuses them as an output folder", async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-dir-target-'))
    dirs.push(root)
    const outDir = join(root, '.output/public')
    for (const [target, why] of [
      [join(root, 'templates'), 'it is inside templates/, which the build renders with'],
      [join(root, 'config/www'), 'it is inside config/, which the build reads its configuration from'],
      [join(root, '.site'), "it is inside .site/, the project's cache, which holds site publish's journal"],
    ])
      await expect(createDeployTarget(`dir:${target}`, { outDir, root }), target).rejects.toThrow(
        `Refusing to deploy into ${target}: ${why}`,
      )
    expect(await readdir(root)).toEqual([])
  })
})
