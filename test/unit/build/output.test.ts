import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  applyToOutput,
  checkOutDir,
  checkOutDirContents,
  createTempOutput,
  discardOutput,
  lockBuildOutput,
  outputLockFile,
  removeStaleSiblings,
  swapInOutput,
} from '../../../src/build/output/output.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-output-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('checkOutDir', () => {
  it.each([
    ['/', '/work/project'],
    ['/work/project', '/work/project'],
    ['/work', '/work/project'],
    ['/work/project/public', '/work/project'],
    ['/work/project/public/out', '/work/project'],
    // the templates and config a build reads: `--out templates --force` would delete them
    ['/work/project/templates', '/work/project'],
    ['/work/project/templates/layouts', '/work/project'],
    ['/work/project/config', '/work/project'],
    // the project's cache: `--out .site --force` would delete site publish's journal and the bundles
    ['/work/project/.site', '/work/project'],
    ['/work/project/.site/out', '/work/project'],
  ])('refuses %s for project %s', (out, root) =>
    expect(() => checkOutDir(out, root)).toThrow(expect.objectContaining({ code: 'USAGE' })),
  )

  it('names the project folder it would replace', () => {
    expect(() => checkOutDir('/work/project/templates', '/work/project')).toThrow(
      'Refusing to build into /work/project/templates: it is inside templates/, which the build renders with',
    )
  })

  it('names the cache folder it would replace, and what is in it', () => {
    expect(() => checkOutDir('/work/project/.site', '/work/project')).toThrow(
      "Refusing to build into /work/project/.site: it is inside .site/, the project's cache, which holds site publish's journal",
    )
  })

  // A link compared as a name got past the check: `--out templates-link/layouts --force` replaced templates/layouts,
  // and so did a real path into templates/ when the project root was found through a link.
  it('follows links: an output folder reached through a link into templates/ is refused as templates/ is', async () => {
    await mkdir(join(dir, 'templates'))
    await symlink(join(dir, 'templates'), join(dir, 'templates-link'))
    expect(() => checkOutDir(join(dir, 'templates-link', 'layouts'), dir)).toThrow(
      `Refusing to build into ${join(dir, 'templates-link', 'layouts')}: it is inside templates/, which the build renders with`,
    )
    // a link at OUT is moved aside by a build, not written through, but leads there all the same
    expect(() => checkOutDir(join(dir, 'templates-link'), dir)).toThrow('it is inside templates/')
    await symlink(dir, join(dir, 'root-link'))
    expect(() => checkOutDir(join(dir, 'config', 'out'), join(dir, 'root-link'))).toThrow('it is inside config/')
  })

  // public/ or templates/ as a link to a folder shared by several projects: comparing where OUT leads with the
  // project's name for them let `--out public/out` write into the shared folder the build copies from.
  it('follows a project folder that is a link: an output folder inside where public/ leads is refused', async () => {
    await mkdir(join(dir, 'shared-public'))
    await mkdir(join(dir, 'project'))
    await symlink(join(dir, 'shared-public'), join(dir, 'project', 'public'))
    for (const out of [
      join(dir, 'project', 'public', 'out'),
      join(dir, 'project', 'public'),
      join(dir, 'shared-public'),
    ])
      expect(() => checkOutDir(out, join(dir, 'project'))).toThrow(
        `Refusing to build into ${out}: it is inside public/, which the build copies from`,
      )
  })

  it.each([
    ['/work/project/.output/public', '/work/project'],
    ['/work/site-out', '/work/project'],
    ['/work/project/public-out', '/work/project'],
    ['/work/project/templates-out', '/work/project'],
  ])('accepts %s for project %s', (out, root) => expect(() => checkOutDir(out, root)).not.toThrow())
})

describe('temporary output and swap', () => {
  it('creates the temporary folder beside OUT, named with the pid of this build and when it started', async () => {
    const folders = await createTempOutput(join(dir, 'nested/out'))
    expect(folders.outDir).toBe(join(dir, 'nested/out'))
    const id = folders.tempDir.slice(join(dir, 'nested/.out-tmp-').length)
    expect(id).toMatch(new RegExp(`^${process.pid}-\\d+-[0-9a-f]{12}$`))
    expect(folders.oldDir).toBe(join(dir, `nested/.out-old-${id}`))
    expect(await readdir(join(dir, 'nested'))).toEqual([`.out-tmp-${id}`])
  })

  it('names the file in the way when the folder cannot be made (OUT_DIR_UNWRITABLE)', async () => {
    await writeFile(join(dir, 'a-file'), 'x')
    for (const out of [join(dir, 'a-file/out'), join(dir, 'a-file/deeper/out')])
      await expect(createTempOutput(out), out).rejects.toMatchObject({
        code: 'OUT_DIR_UNWRITABLE',
        message: `Cannot build into ${out}: ${join(dir, 'a-file')} is a file, not a folder`,
      })
    expect(await readFile(join(dir, 'a-file'), 'utf8')).toBe('x')
  })

  it('swaps a new output in and removes the old one', async () => {
    await mkdir(join(dir, 'out'))
    await writeFile(join(dir, 'out/old.html'), 'old')
    const folders = await createTempOutput(join(dir, 'out'))
    await writeFile(join(folders.tempDir, 'new.html'), 'new')
    await swapInOutput(folders)
    expect(await readdir(dir)).toEqual(['out'])
    expect(await readdir(join(dir, 'out'))).toEqual(['new.html'])
  })

  it('swaps in when there was no output yet', async () => {
    const folders = await createTempOutput(join(dir, 'out'))
    await writeFile(join(folders.tempDir, 'index.html'), 'x')
    await swapInOutput(folders)
    expect(await readFile(join(dir, 'out/index.html'), 'utf8')).toBe('x')
  })

  it('discarding leaves OUT as it was', async () => {
    await mkdir(join(dir, 'out'))
    await writeFile(join(dir, 'out/keep.html'), 'keep')
    const folders = await createTempOutput(join(dir, 'out'))
    await writeFile(join(folders.tempDir, 'half.html'), 'half')
    await discardOutput(folders)
    expect(await readdir(dir)).toEqual(['out'])
    expect(await readFile(join(dir, 'out/keep.html'), 'utf8')).toBe('keep')
  })
})

describe('checkOutDirContents', () => {
  it('accepts a missing folder, an empty one and a previous site output', async () => {
    expect(await checkOutDirContents(join(dir, 'missing'))).toBe('missing')
    await mkdir(join(dir, 'empty'))
    expect(await checkOutDirContents(join(dir, 'empty'))).toBe('empty')
    await mkdir(join(dir, 'site/_site/builds'), { recursive: true })
    await writeFile(join(dir, 'site/_site/builds/latest.json'), '{"id":"a"}')
    expect(await checkOutDirContents(join(dir, 'site'))).toBe('site-output')
  })

  it('refuses anything else, naming the folder, unless forced', async () => {
    await mkdir(join(dir, 'docs'))
    await writeFile(join(dir, 'docs/readme.txt'), 'x')
    await expect(checkOutDirContents(join(dir, 'docs'))).rejects.toMatchObject({
      code: 'OUT_DIR_NOT_SITE_OUTPUT',
      message: expect.stringContaining(join(dir, 'docs')),
    })
    expect(await checkOutDirContents(join(dir, 'docs'), { force: true })).toBe('other')
    await writeFile(join(dir, 'file'), 'x')
    await expect(checkOutDirContents(join(dir, 'file'))).rejects.toMatchObject({
      message: expect.stringContaining('a file, not a folder'),
    })
  })
})

describe('removeStaleSiblings', () => {
  it('removes the folders of builds that are gone, not those of a running build or of other folders', async () => {
    await mkdir(join(dir, 'out'))
    // pid 1 is always running; a pid above the kernel's maximum never is
    const names = ['.out-tmp-4194305-aa', '.out-old-4194305-bb', '.out-tmp-deadbeef', '.out-tmp-1-cc', '.other-tmp-x']
    for (const name of names) await mkdir(join(dir, name))
    expect((await removeStaleSiblings(join(dir, 'out'))).sort()).toEqual([
      '.out-old-4194305-bb',
      '.out-tmp-4194305-aa',
      '.out-tmp-deadbeef',
    ])
    expect((await readdir(dir)).sort()).toEqual(['.other-tmp-x', '.out-tmp-1-cc', 'out'])
  })

  it('leaves the locks beside OUT alone, even those of a process that is gone: the next holder takes them over', async () => {
    await mkdir(join(dir, 'out'))
    for (const holder of ['publish', 'build'] as const)
      await writeFile(outputLockFile(join(dir, 'out'), holder), '4194305\n')
    expect(await removeStaleSiblings(join(dir, 'out'))).toEqual([])
    expect((await readdir(dir)).sort()).toEqual(['.out-build.lock', '.out-publish.lock', 'out'])
  })

  it("removes a build's folders, and puts back its output, when its id is another process's now", async () => {
    // after a reboot or a container's restart, pid 1 is another process than the build that named its folders
    const start = Number((await readFile('/proc/1/stat', 'utf8')).split(') ')[1]!.split(' ')[19])
    await mkdir(join(dir, `.out-old-1-${start + 1}-aa`))
    await writeFile(join(dir, `.out-old-1-${start + 1}-aa/index.html`), 'previous')
    await mkdir(join(dir, `.out-tmp-1-${start + 1}-aa`))
    await mkdir(join(dir, `.out-tmp-1-${start}-bb`))
    await removeStaleSiblings(join(dir, 'out'))
    expect((await readdir(dir)).sort()).toEqual([`.out-tmp-1-${start}-bb`, 'out'])
    expect(await readFile(join(dir, 'out/index.html'), 'utf8')).toBe('previous')
  })

  it('puts back a previous output that a cut swap left aside', async () => {
    await mkdir(join(dir, '.out-old-4194305-aa'))
    await writeFile(join(dir, '.out-old-4194305-aa/index.html'), 'previous')
    await mkdir(join(dir, '.out-tmp-4194305-aa'))
    await removeStaleSiblings(join(dir, 'out'))
    expect(await readdir(dir)).toEqual(['out'])
    expect(await readFile(join(dir, 'out/index.html'), 'utf8')).toBe('previous')
  })
})

describe('applyToOutput (incremental commit)', () => {
  it('moves the written files into OUT, removes the removed ones and their empty folders, leaves the rest', async () => {
    const out = join(dir, 'out')
    await mkdir(join(out, 'kept'), { recursive: true })
    await mkdir(join(out, 'gone/deep'), { recursive: true })
    await mkdir(join(out, '_site/builds'), { recursive: true })
    await writeFile(join(out, 'kept/index.html'), 'kept')
    await writeFile(join(out, 'changed.html'), 'before')
    await writeFile(join(out, 'gone/deep/index.html'), 'gone')
    await writeFile(join(out, '_site/builds/state.jsonl'), 'old state')
    const keptBefore = await stat(join(out, 'kept/index.html'), { bigint: true })
    const folders = await createTempOutput(out)
    await mkdir(join(folders.tempDir, 'new'), { recursive: true })
    await mkdir(join(folders.tempDir, '_site/builds'), { recursive: true })
    await writeFile(join(folders.tempDir, 'changed.html'), 'after')
    await writeFile(join(folders.tempDir, 'new/index.html'), 'new')
    await writeFile(join(folders.tempDir, '_site/builds/state.jsonl'), 'new state')
    await applyToOutput(folders, {
      written: ['_site/builds/state.jsonl', 'changed.html', 'new/index.html'],
      removed: ['gone/deep/index.html'],
    })
    expect(await readdir(dir)).toEqual(['out'])
    expect((await readdir(out, { recursive: true })).sort()).toEqual([
      '_site',
      '_site/builds',
      '_site/builds/state.jsonl',
      'changed.html',
      'kept',
      'kept/index.html',
      'new',
      'new/index.html',
    ])
    expect(await readFile(join(out, 'changed.html'), 'utf8')).toBe('after')
    expect(await readFile(join(out, '_site/builds/state.jsonl'), 'utf8')).toBe('new state')
    const keptAfter = await stat(join(out, 'kept/index.html'), { bigint: true })
    expect([keptAfter.ino, keptAfter.mtimeNs]).toEqual([keptBefore.ino, keptBefore.mtimeNs])
  })

  it('moves the old state aside while it commits: a commit cut short leaves it there, a commit done does not', async () => {
    const out = join(dir, 'out')
    await mkdir(join(out, '_site/builds'), { recursive: true })
    await writeFile(join(out, '_site/builds/state.jsonl'), 'old state')
    // a side copy an earlier cut commit left is replaced, not taken for a file to remove
    await writeFile(join(out, '_site/builds/.state-previous.jsonl'), 'older state')
    const cut = await createTempOutput(out)
    await writeFile(join(cut.tempDir, 'a.html'), 'a')
    // `b.html` is not in the temporary folder: the commit stops there, as a killed one would
    await expect(
      applyToOutput(cut, { written: ['_site/builds/state.jsonl', 'a.html', 'b.html'], removed: [] }),
    ).rejects.toThrow()
    expect((await readdir(join(out, '_site/builds'))).sort()).toEqual(['.state-previous.jsonl'])
    expect(await readFile(join(out, '_site/builds/.state-previous.jsonl'), 'utf8')).toBe('old state')
    expect(await readFile(join(out, 'a.html'), 'utf8')).toBe('a')
    await writeFile(join(out, '_site/builds/state.jsonl'), 'old state')
    const done = await createTempOutput(out)
    await mkdir(join(done.tempDir, '_site/builds'), { recursive: true })
    await writeFile(join(done.tempDir, '_site/builds/state.jsonl'), 'new state')
    await applyToOutput(done, {
      written: ['_site/builds/state.jsonl'],
      removed: ['_site/builds/.state-previous.jsonl'],
    })
    expect((await readdir(join(out, '_site/builds'))).sort()).toEqual(['state.jsonl'])
    expect(await readFile(join(out, '_site/builds/state.jsonl'), 'utf8')).toBe('new state')
  })

  it('never removes anything outside OUT', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    await writeFile(join(dir, 'neighbour.txt'), 'mine')
    const folders = await createTempOutput(out)
    await expect(applyToOutput(folders, { written: [], removed: ['../neighbour.txt'] })).rejects.toMatchObject({
      code: 'WRITE_OUTSIDE_OUT_DIR',
    })
    expect(await readFile(join(dir, 'neighbour.txt'), 'utf8')).toBe('mine')
  })
})

describe('lockBuildOutput', () => {
  it('refuses a folder in place of its lock as OUT_DIR_UNWRITABLE and leaves the folder as it was', async () => {
    const out = join(dir, 'out')
    const lock = outputLockFile(out, 'build')
    await mkdir(lock)
    await writeFile(join(lock, 'mine.txt'), 'mine')
    await expect(lockBuildOutput(out)).rejects.toMatchObject({
      code: 'OUT_DIR_UNWRITABLE',
      message: expect.stringContaining(`Cannot build into ${out}: `),
    })
    expect(await readFile(join(lock, 'mine.txt'), 'utf8')).toBe('mine')
  })
})
