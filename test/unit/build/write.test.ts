import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileWriter, createStagedWriter, hashContents, resolveInside } from '../../../src/build/output/write.js'

describe('resolveInside', () => {
  it.each([
    ['index.html', '/out/index.html'],
    ['pl/o-nas/index.html', '/out/pl/o-nas/index.html'],
    ['a/../b.html', '/out/b.html'],
    ['über/index.html', '/out/über/index.html'],
  ])('%s', (path, resolved) => expect(resolveInside('/out', path)).toBe(resolved))

  it.each(['../x', 'a/../../x', '/etc/passwd', 'a\0b', '', '.', 'a/..', `${'a/'.repeat(3000)}x`])(
    'refuses %j',
    (path) => {
      expect(() => resolveInside('/out', path)).toThrow(expect.objectContaining({ code: 'WRITE_OUTSIDE_OUT_DIR' }))
    },
  )

  it('answers as path.resolve does, plain paths (joined directly) and others, under any root', () => {
    const paths = [
      'a',
      'a/b/index.html',
      '...',
      '..a/b',
      'a/.b',
      'a/b.',
      'a//b',
      'a/./b',
      'a/b/',
      './a',
      'a\\b',
      'a b/ż',
    ]
    for (const root of ['/out', '/', '/out/', '/x/../out', 'relative/out'])
      for (const path of paths) expect(resolveInside(root, path), `${root} + ${path}`).toBe(resolve(root, path))
  })
})

describe('hashContents', () => {
  it('is XXH64 in 16 hex digits, of text as of its UTF-8 bytes, wherever the bytes are', () => {
    expect(hashContents('')).toBe('ef46db3751d8e999')
    const text = 'żółw <p>'.repeat(1000)
    const bytes = new TextEncoder().encode(text)
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength + 8), 8)
    shared.set(bytes)
    expect(new Set([hashContents(text), hashContents(bytes), hashContents(shared)]).size).toBe(1)
    expect(hashContents(text)).toMatch(/^[0-9a-f]{16}$/)
    expect(hashContents(`${text}.`)).not.toBe(hashContents(text))
  })
})

describe('createFileWriter', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-writer-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('writes files in new folders and counts files and bytes', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    expect(await writer.write('a/b/index.html', 'żółw')).toBe(7)
    await writer.write('a/b/_payload.json', new Uint8Array([1, 2, 3]))
    expect(await readFile(join(dir, 'out/a/b/index.html'), 'utf8')).toBe('żółw')
    expect(writer.stats()).toEqual({ files: 2, bytes: 10, kept: 0 })
  })

  it('copies a file through the same guard', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    await writer.write('src.txt', 'hello')
    expect(await writer.copy(join(dir, 'out/src.txt'), 'copy/dst.txt')).toBe(5)
    await expect(writer.copy(join(dir, 'out/src.txt'), '../escaped.txt')).rejects.toMatchObject({
      code: 'WRITE_OUTSIDE_OUT_DIR',
    })
  })

  it('writes large generated files from parts, in batches, through the same guard', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    const parts = function* () {
      yield '<urlset>'
      for (let i = 0; i < 20_000; i++) yield `<url><loc>/page-${i}/żółw</loc></url>`
      yield '</urlset>'
    }
    const expected = [...parts()].join('')
    expect(await writer.writeParts('maps/sitemap.xml', parts())).toBe(Buffer.byteLength(expected))
    expect(await readFile(join(dir, 'out/maps/sitemap.xml'), 'utf8')).toBe(expected)
    await expect(writer.writeParts('../sitemap.xml', ['x'])).rejects.toMatchObject({ code: 'WRITE_OUTSIDE_OUT_DIR' })
  })

  // /dev/full answers every write with ENOSPC, as a full disk does; Node's write error names no file
  it.skipIf(!existsSync('/dev/full'))('names the file a full disk refused', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    await writer.write('a/index.html', 'x')
    await symlink('/dev/full', join(dir, 'out/a/full.html'))
    await symlink('/dev/full', join(dir, 'out/a/sitemap.xml'))
    const refused = (file: string) => ({
      code: 'ENOSPC',
      message: expect.stringMatching(new RegExp(`^Writing ${join(dir, 'out/a', file)} failed: ENOSPC: no space left`)),
    })
    await expect(writer.write('a/full.html', 'x')).rejects.toMatchObject(refused('full.html'))
    await expect(writer.writeParts('a/sitemap.xml', ['x'])).rejects.toMatchObject(refused('sitemap.xml'))
  })

  // a build's temporary folder removed while it builds (another build took it for a killed one's): made again, it
  // would go out as the output without the files written before
  it('refuses to make its root again once it was removed', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    await writer.write('_site/assets/app.js', 'x')
    await rm(join(dir, 'out'), { recursive: true })
    for (const write of [() => writer.write('a/index.html', 'x'), () => writer.writeParts('b/sitemap.xml', ['x'])])
      await expect(write()).rejects.toThrow(`${join(dir, 'out')} was removed while the build wrote into it`)
    expect([writer.written(), existsSync(join(dir, 'out'))]).toEqual([['_site/assets/app.js'], false])
  })

  it('never writes outside its root', async () => {
    const writer = createFileWriter(join(dir, 'out'))
    await expect(writer.write('../outside.txt', 'x')).rejects.toMatchObject({ code: 'WRITE_OUTSIDE_OUT_DIR' })
    await expect(writer.write('/tmp/abs.txt', 'x')).rejects.toMatchObject({ code: 'WRITE_OUTSIDE_OUT_DIR' })
    expect(await readdir(dir)).toEqual([])
  })

  it('holds writes and keeps aside until committed, with its own copy of the bytes', async () => {
    const previous = new Map([['kept/index.html', 'h-kept']])
    const writer = createFileWriter(join(dir, 'stage'), { previous: { hashOf: (path) => previous.get(path) } })
    const staged = createStagedWriter(writer)
    const bytes = Buffer.from('page')
    expect(await staged.writer.write('a/index.html', bytes)).toBe(4)
    expect(await staged.writer.write('a/_payload.json', '{}')).toBe(2)
    expect(staged.writer.keep('kept/index.html')).toBe(true)
    expect(staged.writer.keep('never/index.html')).toBe(false)
    expect(staged.writer.previousHash('kept/index.html')).toBe('h-kept')
    bytes.fill(0) // a render worker's ring takes its bytes back
    expect([writer.outputs().size, await readdir(join(dir, 'stage')).catch(() => [])]).toEqual([0, []])
    await staged.commit()
    expect(await readFile(join(dir, 'stage/a/index.html'), 'utf8')).toBe('page')
    expect(Object.fromEntries(writer.outputs())).toEqual({
      'a/index.html': hashContents('page'),
      'a/_payload.json': hashContents('{}'),
      'kept/index.html': 'h-kept',
    })
  })

  it('writes only what changed from the previous output, and keeps the rest', async () => {
    await writeFile(join(dir, 'public.txt'), 'public')
    const previous = new Map([
      ['same.html', hashContents('same')],
      ['changed.html', hashContents('before')],
      ['sitemap.xml', hashContents('<urlset></urlset>')],
      ['public.txt', hashContents('public')],
      ['kept/index.html', 'h-kept'],
    ])
    const writer = createFileWriter(join(dir, 'stage'), { previous: { hashOf: (path) => previous.get(path) } })
    expect(await writer.write('same.html', 'same')).toBe(0)
    expect(await writer.write('changed.html', 'after')).toBe(5)
    expect(await writer.write('new.html', new TextEncoder().encode('new'))).toBe(3)
    expect(await writer.writeParts('sitemap.xml', ['<urlset>', '</urlset>'])).toBe(0)
    expect(await writer.copy(join(dir, 'public.txt'), 'public.txt')).toBe(0)
    expect(writer.keep('kept/index.html')).toBe(true)
    expect(writer.keep('never/index.html')).toBe(false)
    expect((await readdir(join(dir, 'stage'), { recursive: true })).sort()).toEqual(['changed.html', 'new.html'])
    expect(writer.written()).toEqual(['changed.html', 'new.html'])
    expect(writer.stats()).toEqual({ files: 2, bytes: 8, kept: 4 })
    expect(Object.fromEntries(writer.outputs())).toEqual({
      'same.html': hashContents('same'),
      'changed.html': hashContents('after'),
      'new.html': hashContents('new'),
      'sitemap.xml': hashContents('<urlset></urlset>'),
      'public.txt': hashContents('public'),
      'kept/index.html': 'h-kept',
    })
  })

  it('makes the last write of a path its file, written or kept, and counts it once', async () => {
    await writeFile(join(dir, '404.html'), 'the public one')
    const previous = new Map([['404.html', hashContents('generated')]])
    const stage = join(dir, 'stage')
    // a first build: the public file, then the generated one over it
    const first = createFileWriter(join(dir, 'first'))
    await first.copy(join(dir, '404.html'), '404.html')
    await first.write('404.html', 'generated')
    expect(await readFile(join(dir, 'first/404.html'), 'utf8')).toBe('generated')
    expect(first.written()).toEqual(['404.html'])
    expect(first.stats()).toEqual({ files: 1, bytes: 9, kept: 0 })
    // over a previous output whose file the generated one equals: the public copy goes again
    const writer = createFileWriter(stage, { previous: { hashOf: (path) => previous.get(path) } })
    expect(await writer.copy(join(dir, '404.html'), '404.html')).toBe(14)
    expect(await writer.write('404.html', 'generated')).toBe(0)
    expect(await readdir(stage)).toEqual([])
    expect(writer.written()).toEqual([])
    expect(writer.stats()).toEqual({ files: 0, bytes: 0, kept: 1 })
    expect(writer.outputs().get('404.html')).toBe(hashContents('generated'))
    // and the other way round: kept first, then written
    expect(await writer.write('404.html', 'changed')).toBe(7)
    expect(writer.stats()).toEqual({ files: 1, bytes: 7, kept: 0 })
    expect(await readFile(join(stage, '404.html'), 'utf8')).toBe('changed')
  })

  it('keeps every previous file but those named at once, as keep() would each, when it has their hashes', async () => {
    const hashes = new Map([
      ['a/index.html', 'h-a'],
      ['a/_payload.json', 'h-a-payload'],
      ['b/index.html', 'h-b'],
      ['state.jsonl', 'h-state'],
    ])
    // without every hash at hand it keeps nothing
    const blind = createFileWriter(join(dir, 'blind'), { previous: { hashOf: (path) => hashes.get(path) } })
    expect(blind.keepAllBut([])).toBe(false)
    expect(blind.outputs().size).toBe(0)

    const stage = join(dir, 'stage')
    const writer = createFileWriter(stage, { previous: { hashOf: (path) => hashes.get(path), hashes } })
    // written before: a file of its own, and one at a path the previous output has (it goes again)
    await writer.write('new.txt', 'new')
    await writer.write('b/index.html', 'public copy')
    expect(writer.touched()).toBeUndefined()
    expect(writer.keepAllBut(['a/_payload.json', 'state.jsonl'])).toBe(true)
    // what may differ from the previous output: what it left out and what was written or kept before
    expect([...writer.touched()!].sort()).toEqual(['a/_payload.json', 'b/index.html', 'new.txt', 'state.jsonl'])
    expect(Object.fromEntries(writer.outputs())).toEqual({
      'a/index.html': 'h-a',
      'b/index.html': 'h-b',
      'new.txt': hashContents('new'),
    })
    expect(writer.written()).toEqual(['new.txt'])
    expect(writer.stats()).toEqual({ files: 1, bytes: 3, kept: 2 })
    expect((await readdir(stage, { recursive: true })).sort()).toEqual(['b', 'new.txt'])
    // a file written after it is written as any other, and touched
    expect(await writer.write('a/_payload.json', 'changed')).toBe(7)
    expect(writer.outputs().get('a/_payload.json')).toBe(hashContents('changed'))
    await writer.write('c.txt', 'c')
    expect(writer.keep('a/index.html')).toBe(true)
    expect(writer.touched()).toEqual(
      new Set(['a/_payload.json', 'b/index.html', 'new.txt', 'state.jsonl', 'c.txt', 'a/index.html']),
    )
  })
})
