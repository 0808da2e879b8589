/**
 * `npm pack` ships the type declarations `prepack` writes: only those of the current sources, never a
 * declaration left in dist-types/ by a module since removed or renamed.
 */
import { cp, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-helpers.js'
import { runCommand } from './cli-helpers.js'

let work: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'site-pack-types-'))
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.types.json'])
    await cp(join(REPO_ROOT, file), join(work, file))
  await cp(join(REPO_ROOT, 'src'), join(work, 'src'), { recursive: true })
  await symlink(join(REPO_ROOT, 'node_modules'), join(work, 'node_modules'), 'dir')
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

describe('prepack', () => {
  it('writes dist-types/ anew, without the declarations of modules that are gone', async () => {
    await mkdir(join(work, 'dist-types/old'), { recursive: true })
    await writeFile(join(work, 'dist-types/old/removed-module.d.ts'), 'export declare const gone: 1\n')
    const run = await runCommand('npm', ['run', 'prepack'], { cwd: work })
    expect(run.code, run.stderr).toBe(0)
    expect((await stat(join(work, 'dist-types/index.d.ts'))).isFile()).toBe(true)
    await expect(stat(join(work, 'dist-types/old'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
