import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listPublicFiles } from '../../../src/project/public-files.js'

describe('listPublicFiles: the one lister build copies from and preview serves from', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-public-'))
    await mkdir(join(root, 'public', 'icons'), { recursive: true })
    await mkdir(join(root, 'public', '.well-known'))
    await mkdir(join(root, 'public', '.git'))
    await writeFile(join(root, 'public', 'sw.js'), '')
    await writeFile(join(root, 'public', 'icons', 'a b.png'), '')
    await writeFile(join(root, 'public', 'icons', '.DS_Store'), '')
    await writeFile(join(root, 'public', '.well-known', 'security.txt'), '')
    await writeFile(join(root, 'public', '.git', 'config'), '')
    await writeFile(join(root, 'public', '.env'), 'SECRET=1')
    await writeFile(join(root, 'outside.txt'), '')
    await symlink(join(root, 'outside.txt'), join(root, 'public', 'link.txt'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('lists regular files, .well-known/ included, sorted', async () => {
    const { files } = await listPublicFiles(join(root, 'public'))
    expect(files).toEqual(['.well-known/security.txt', 'icons/a b.png', 'sw.js'])
  })

  it('leaves out dot files, dot folders and symbolic links, and says why', async () => {
    const { skipped } = await listPublicFiles(join(root, 'public'))
    expect(skipped).toEqual([
      { path: '.env', reason: 'a dot file is not published (only .well-known/ is)' },
      { path: '.git', reason: 'a dot file is not published (only .well-known/ is)' },
      { path: 'icons/.DS_Store', reason: 'a dot file is not published (only .well-known/ is)' },
      { path: 'link.txt', reason: 'not a regular file (symbolic links are not followed)' },
    ])
  })

  it('lists nothing for a missing folder', async () => {
    expect(await listPublicFiles(join(root, 'missing'))).toEqual({ files: [], skipped: [] })
  })
})
