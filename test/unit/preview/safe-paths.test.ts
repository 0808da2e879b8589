import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listPublicFiles } from '../../../src/preview/public-files.js'
import { toSafeSegments } from '../../../src/serve/safe-path.js'

describe('toSafeSegments (static files of serve and preview)', () => {
  it.each([
    ['/', []],
    ['/sw.js', ['sw.js']],
    ['/a/b/', ['a', 'b']],
    ['/pl/%C3%BCber', ['pl', 'über']],
    ['/icons/a%20b.png', ['icons', 'a b.png']],
  ])('%s -> %j', (input, expected) => expect(toSafeSegments(input)).toEqual(expected))

  it.each([
    '/../x',
    '/a/%2e%2e/x',
    '/a/%2E%2E%2Fx',
    '/a%2fb',
    '/a%5cb',
    '/a%00',
    '/%E0%A4%A',
    '/a\\b',
    'relative',
    '/./x',
    '/c:/x',
  ])('refuses %s', (input) => expect(toSafeSegments(input)).toBeUndefined())
})

describe('listPublicFiles', () => {
  it('lists files below public/, without dot files and symbolic links', async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-public-'))
    try {
      await mkdir(join(root, 'public', 'icons'), { recursive: true })
      await writeFile(join(root, 'public', 'sw.js'), '')
      await writeFile(join(root, 'public', 'icons', 'a b.png'), '')
      await writeFile(join(root, 'public', '.env'), 'SECRET=1')
      await writeFile(join(root, 'outside.txt'), '')
      await symlink(join(root, 'outside.txt'), join(root, 'public', 'link.txt'))
      const files = await listPublicFiles(join(root, 'public'))
      expect([...files.keys()]).toEqual(['icons/a b.png', 'sw.js'])
      expect(files.get('sw.js')).toBe(join(root, 'public', 'sw.js'))
      expect((await listPublicFiles(join(root, 'missing'))).size).toBe(0)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
