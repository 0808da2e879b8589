import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CachedBundleOptions, cachedBundle } from '../../../src/project/bundle-cache.js'

let dir: string
let cache: string
let input: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-bundle-cache-'))
  cache = join(dir, '.site/bundles')
  input = join(dir, 'src/entry.ts')
  await mkdir(join(dir, 'src'))
  await writeFile(input, 'export const a = 1\n')
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A bundle whose output is its input's text, counting how often it is made. */
function bundleOf(overrides: Partial<CachedBundleOptions<{ size: number }>> = {}) {
  const made = { count: 0 }
  const options: CachedBundleOptions<{ size: number }> = {
    dir: cache,
    name: 'test',
    key: 'options-1',
    bundler: import.meta.url,
    check: (value, blobs) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { size: unknown }).size === 'number' &&
      blobs.has('out')
        ? (value as { size: number })
        : undefined,
    make: async () => {
      made.count++
      const text = await readFile(input, 'utf8')
      return { value: { size: text.length }, inputs: [input], blobs: new Map([['out', `bundled:${text}`]]) }
    },
    ...overrides,
  }
  return { made, run: () => cachedBundle(options) }
}

const text = (blob: string | Uint8Array | undefined) => Buffer.from(blob ?? '').toString('utf8')

describe('the bundle cache', () => {
  it('makes a bundle once, then takes it from the cache while its inputs hold', async () => {
    const { made, run } = bundleOf()
    const first = await run()
    const second = await run()
    expect(made.count).toBe(1)
    expect([first.cached, second.cached]).toEqual([false, true])
    expect(text(second.blobs.get('out'))).toBe('bundled:export const a = 1\n')
    expect(second.value).toEqual({ size: 19 })
  })

  it('makes it again when an input changes, and when a config file appears in a folder above an input', async () => {
    const { made, run } = bundleOf()
    await run()
    await writeFile(input, 'export const a = 2\n')
    expect(text((await run()).blobs.get('out'))).toBe('bundled:export const a = 2\n')
    expect(made.count).toBe(2)
    // a tsconfig.json can change how esbuild compiles the files below it
    await writeFile(join(dir, 'tsconfig.json'), '{"compilerOptions":{"jsx":"preserve"}}')
    expect((await run()).cached).toBe(false)
    expect(made.count).toBe(3)
    expect((await run()).cached).toBe(true)
  })

  // a template saved while preview (or a build) bundled: the old bundle was stored under the new bytes' digest, and
  // every later build and preview took it until the template changed again
  it('stores no entry when an input changed while the bundle was made', async () => {
    const { made, run } = bundleOf({
      make: async () => {
        made.count++
        const read = await readFile(input, 'utf8')
        // a bundle takes a while: the save comes later than a tick of the file system's clock
        await new Promise((resolve) => setTimeout(resolve, 50))
        await writeFile(input, 'export const a = 2 // saved meanwhile\n')
        return { value: { size: read.length }, inputs: [input], blobs: new Map([['out', `bundled:${read}`]]) }
      },
    })
    await run()
    const next = bundleOf()
    expect(text((await next.run()).blobs.get('out'))).toBe('bundled:export const a = 2 // saved meanwhile\n')
    expect(next.made.count).toBe(1)
  })

  it('makes it again for another key, and keeps one entry per name', async () => {
    await bundleOf().run()
    const other = bundleOf({ key: 'options-2' })
    expect((await other.run()).cached).toBe(false)
    expect((await bundleOf().run()).cached).toBe(false)
    // each entry stored removes the files no record names: one blob left
    expect((await readdir(join(cache, 'test'))).length).toBe(1)
  })

  it('takes nothing from a stored file whose bytes changed: the bundle is made again and stored anew', async () => {
    const { made, run } = bundleOf()
    await run()
    const [blob] = await readdir(join(cache, 'test'))
    await writeFile(join(cache, 'test', blob!), 'bundled:export const evil = 1\n')
    const again = await run()
    expect(again.cached).toBe(false)
    expect(text(again.blobs.get('out'))).toBe('bundled:export const a = 1\n')
    expect(made.count).toBe(2)
    expect((await run()).cached).toBe(true)
  })

  it('takes nothing from a record that is not one, or whose value the caller refuses', async () => {
    const { made, run } = bundleOf()
    await run()
    const record = join(cache, 'test.json')
    const stored = JSON.parse(await readFile(record, 'utf8'))
    for (const bad of [
      'not json',
      JSON.stringify({ ...stored, version: 2 }),
      JSON.stringify({ ...stored, inputs: [['relative/path.ts', null]] }),
      JSON.stringify({ ...stored, blobs: [['out', '../../etc/passwd']] }),
      JSON.stringify({ ...stored, value: { size: 'big' } }),
      JSON.stringify([]),
    ]) {
      await writeFile(record, bad)
      expect((await run()).cached).toBe(false)
    }
    expect(made.count).toBe(7)
  })

  it('never waits on a FIFO a record names as an input, and never follows a link to a record', async () => {
    const { made, run } = bundleOf()
    await run()
    const record = join(cache, 'test.json')
    const stored = JSON.parse(await readFile(record, 'utf8'))
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    await writeFile(record, JSON.stringify({ ...stored, inputs: [...stored.inputs, [fifo, null]] }))
    expect((await run()).cached).toBe(false)
    // a record that is a link to a file elsewhere is not read
    const elsewhere = join(dir, 'elsewhere.json')
    await writeFile(elsewhere, await readFile(record))
    await rm(record)
    execFileSync('ln', ['-s', elsewhere, record])
    expect((await run()).cached).toBe(false)
    expect(made.count).toBe(3)
  })

  it('still answers when the cache folder cannot be written', async () => {
    await writeFile(join(dir, '.site'), 'a file where the folder would be')
    const { made, run } = bundleOf()
    expect(text((await run()).blobs.get('out'))).toBe('bundled:export const a = 1\n')
    expect((await run()).cached).toBe(false)
    expect(made.count).toBe(2)
  })

  // Under /proc, as on a mount point whose file system went away, mkdir answers ENOENT though the folder above
  // exists: Node's recursive mkdir retries that for ever, at full CPU, and the build never started rendering
  it.skipIf(!existsSync('/proc/self'))(
    'still answers when the cache folder cannot be made (/proc)',
    async () => {
      const { run } = bundleOf({ dir: '/proc/x/.site/bundles' })
      expect(text((await run()).blobs.get('out'))).toBe('bundled:export const a = 1\n')
    },
    3000,
  )
})
