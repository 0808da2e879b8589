import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  buildIdOf,
  clientVersionOf,
  createManifest,
  type IdLines,
  renderManifestFiles,
} from '../../../src/build/output/manifest.js'

describe('manifest', () => {
  it('sorts and de-duplicates the prerendered paths', () => {
    const manifest = createManifest({ id: 'abc', clientVersion: 'c1', prerendered: ['/pl', '/', '/about', '/pl'] })
    expect(manifest).toEqual({ id: 'abc', clientVersion: 'c1', prerendered: ['/', '/about', '/pl'] })
  })

  it('renders latest.json and meta/<id>.json under _site/builds, with nothing from the clock', () => {
    const files = renderManifestFiles({ id: 'abc', clientVersion: 'c1', prerendered: ['/'] })
    expect(files.map((f) => f.path)).toEqual(['_site/builds/latest.json', '_site/builds/meta/abc.json'])
    expect(JSON.parse(files[0]!.contents)).toEqual({ id: 'abc', clientVersion: 'c1' })
    expect(JSON.parse(files[1]!.contents)).toEqual({ id: 'abc', clientVersion: 'c1', prerendered: ['/'] })
  })
})

describe('ids derived from what was built', () => {
  const outputs = new Map([
    ['index.html', 'h1'],
    ['_payload.json', 'h2'],
    ['_site/builds/latest.json', 'x'],
  ])

  it('gives a build the same id for the same files, whatever their order, manifests left out', () => {
    const id = buildIdOf(outputs)
    expect(id).toMatch(/^[0-9a-f]{16}$/)
    expect(buildIdOf(new Map([...outputs].reverse()))).toBe(id)
    expect(buildIdOf(new Map([...outputs, ['_site/builds/latest.json', 'y']]))).toBe(id)
    expect(buildIdOf(new Map([...outputs, ['index.html', 'h3']]))).not.toBe(id)
    expect(buildIdOf(new Map([...outputs, ['about/index.html', 'h1']]))).not.toBe(id)
  })

  it('keeps the id a digest of the sorted "path\\0hash\\n" lines, however many files and whatever their characters', () => {
    // the id is stored in the build state and on deploy targets: how it is computed must not change it
    const many = new Map<string, string>()
    for (let i = 0; i < 5000; i++) many.set(`de/über-${(i * 7919) % 5000}/ząb-${i}/index.html`, `h${i}`)
    many.set('Zebra/index.html', 'z')
    many.set('_site/builds/meta/x.json', 'm')
    const lines = [...many]
      .filter(([path]) => !path.startsWith('_site/builds/'))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, hash]) => `${path}\0${hash}\n`)
    expect(lines.join('').length).toBeGreaterThan(2 * 65_536)
    expect(buildIdOf(many)).toBe(createHash('sha256').update(lines.join('')).digest('hex').slice(0, 16))
  })

  it("takes the unchanged parts of the last id's lines and gives the id a build from scratch gives", () => {
    const files = new Map<string, string>()
    for (let i = 0; i < 3000; i++) files.set(`p-${(i * 7919) % 3000}/index.html`, `h${i}`)
    files.set('_site/builds/latest.json', 'x')
    let first: IdLines | undefined
    const id = buildIdOf(files, { done: (lines) => (first = lines) })
    expect(id).toBe(buildIdOf(files))
    expect(first!.paths).toHaveLength(3000)
    expect(first!.paths).toEqual([...first!.paths].sort())

    // one hash changed: only its part is made again, the others are the last lines' own strings
    const edited = new Map(files).set(first!.paths[1500]!, 'new')
    let next: IdLines | undefined
    const editedId = buildIdOf(edited, { last: first, done: (lines) => (next = lines) })
    expect(editedId).toBe(buildIdOf(edited))
    expect(editedId).not.toBe(id)
    const changed = next!.parts.flatMap((part, k) => (part === first!.parts[k] ? [] : [k]))
    expect(changed).toEqual([Math.floor(1500 / 512)])
    expect(next!.paths).toBe(first!.paths)

    // other files (one in, one out, as many as before): sorted anew, never the last order
    const moved = new Map(files)
    moved.delete(first!.paths[0]!)
    moved.set('zz/index.html', 'h0')
    expect(buildIdOf(moved, { last: first })).toBe(buildIdOf(moved))
    // a manifest added or changed does not count
    expect(buildIdOf(new Map(files).set('_site/builds/meta/a.json', 'm'), { last: first })).toBe(id)
  })

  it("looks up only the files a build touched when every other file is the last id's, to the same id", () => {
    const files = new Map<string, string>()
    for (let i = 0; i < 3000; i++) files.set(`p-${(i * 7919) % 3000}/index.html`, `h${i}`)
    let first: IdLines | undefined
    buildIdOf(files, { done: (lines) => (first = lines) })
    const [a, b] = [first!.paths[100]!, first!.paths[2900]!]

    // one touched file changed, one touched file the same, a manifest and a path in neither: one part made again
    const edited = new Map(files).set(a, 'new').set('_site/builds/latest.json', 'x')
    const touched = new Set([a, b, '_site/builds/latest.json', 'gone-before/index.html'])
    let next: IdLines | undefined
    const id = buildIdOf(edited, { last: first, touched, done: (lines) => (next = lines) })
    expect(id).toBe(buildIdOf(edited))
    expect(next!.paths).toBe(first!.paths)
    expect(next!.hashes[100]).toBe('new')
    expect(next!.parts.flatMap((part, k) => (part === first!.parts[k] ? [] : [k]))).toEqual([0])
    // a touched file added, or one gone: the files are listed again, to the id a build from scratch gives
    const added = new Map(files).set('zz/index.html', 'z')
    expect(buildIdOf(added, { last: first, touched: new Set(['zz/index.html']) })).toBe(buildIdOf(added))
    const gone = new Map(files)
    gone.delete(b)
    expect(buildIdOf(gone, { last: first, touched: new Set([b]) })).toBe(buildIdOf(gone))
  })

  it('names the client code by its content-hashed files', () => {
    const files = [{ path: '_site/assets/entry-AB12.js' }, { path: '_site/assets/styles-CD34.css' }]
    const version = clientVersionOf(files)
    expect(version).toMatch(/^[0-9a-f]{12}$/)
    expect(clientVersionOf([...files].reverse())).toBe(version)
    expect(clientVersionOf([files[0]!, { path: '_site/assets/styles-EF56.css' }])).not.toBe(version)
  })
})
