/**
 * A build whose disk fills up after its pages, while it writes its state: the run stops as an output folder that
 * cannot take the build (OUT_DIR_UNWRITABLE, with the file, the cause and a hint about space), not as an error of
 * the engine, and the previous output is left as it was. The state's write is made to fail as a full disk's does.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BUILD_STORE_FILE, cacheDir } from '../../src/shared/layout.js'

/** While true, the build state cannot be written. */
const disk = vi.hoisted(() => ({ full: false }))

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const openSync = ((...args: Parameters<typeof fs.openSync>) => {
    if (disk.full && String(args[0]).endsWith('state.jsonl'))
      throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' })
    return fs.openSync(...args)
  }) as typeof fs.openSync
  return { ...fs, default: { ...fs, openSync }, openSync }
})

const { startDemoApi } = await import('../../src/demo/server.js')
const { buildSite, diffTrees, loadBuildTools, readTree, REPO_ROOT } = await import('./build-helpers.js')
const { runSite } = await import('./cli-helpers.js')

let api: Awaited<ReturnType<typeof startDemoApi>>
let dir: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'site-disk-full-'))
})
afterAll(async () => {
  await api.close()
  await rm(dir, { recursive: true, force: true })
})

describe('a disk that fills up while the build writes its state', () => {
  it('stops the build as OUT_DIR_UNWRITABLE naming the file, the previous output untouched', async () => {
    const tools = await loadBuildTools()
    const outDir = join(dir, 'out')
    expect((await buildSite({ apiUrl: api.url, outDir, tools })).failures).toEqual([])
    const before = await readTree(outDir)
    disk.full = true
    const error = await buildSite({ apiUrl: api.url, outDir, tools }).catch((failed: unknown) => failed)
    disk.full = false
    expect(error).toMatchObject({
      code: 'OUT_DIR_UNWRITABLE',
      message: expect.stringMatching(
        new RegExp(`^Cannot build into ${outDir}: Writing .*${BUILD_STORE_FILE} failed: ENOSPC`),
      ),
      hint: expect.stringMatching(/disk .* is full/),
    })
    expect(diffTrees(before, await readTree(outDir))).toEqual([])
  }, 120_000)
})

describe('a write outside the output folder that fails', () => {
  it("is not blamed on the output folder: a project's cache that cannot take the templates' module", async () => {
    const project = join(dir, 'project')
    for (const folder of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, folder), join(project, folder), { recursive: true })
    // a file where the folder of the templates' module goes: the module cannot be written
    await mkdir(join(project, cacheDir('templates'), '..'), { recursive: true })
    await writeFile(join(project, cacheDir('templates')), '')
    const res = await runSite(['build', '--api', api.url, '--json'], { cwd: project })
    // nor on the engine (UNEXPECTED): a write the disk refused, its file named
    expect(JSON.parse(res.stdout)).toMatchObject({
      ok: false,
      kind: 'WRITE_FAILED',
      message: expect.stringContaining(`Writing ${join(project, cacheDir('templates'))}/templates-`),
      hint: expect.stringContaining('may be written'),
    })
    expect(res.code).toBe(1)
  }, 120_000)
})
