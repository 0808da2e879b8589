/**
 * The size a share image's header declares, read in the build's thread, against what libvips (the image
 * process's probe) reads from the same file, for each format the build takes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeImage } from '../../../src/media/encode.js'
import { declaredSize, HEADER_BYTES } from '../../../src/media/header.js'
import { sniffRaster } from '../../../src/media/sniff.js'

let tmp: string
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'site-header-'))
})
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

/** A 48x30 image with an alpha gradient, so that each encoder keeps its alpha and extended headers. */
const source = () =>
  sharp({ create: { width: 48, height: 30, channels: 4, background: { r: 200, g: 80, b: 10, alpha: 0.5 } } })

const samples: Array<[string, () => Promise<Buffer>]> = [
  ['baseline JPEG', () => source().jpeg().toBuffer()],
  ['progressive JPEG', () => source().jpeg({ progressive: true }).toBuffer()],
  ['JPEG turned by its EXIF orientation', () => source().jpeg().withMetadata({ orientation: 6 }).toBuffer()],
  ['PNG', () => source().png().toBuffer()],
  ['GIF', () => source().gif().toBuffer()],
  ['lossy WebP', () => source().webp().toBuffer()],
  ['lossless WebP', () => source().webp({ lossless: true }).toBuffer()],
  ['AVIF', () => source().avif({ effort: 0 }).toBuffer()],
]

describe('declaredSize', () => {
  it.each(samples)('reads the size libvips reads from a %s', async (name, make) => {
    const bytes = await make()
    const format = sniffRaster(bytes)
    expect(format, name).toBeDefined()
    const file = join(tmp, name.replaceAll(' ', '-'))
    await writeFile(file, bytes)
    expect(declaredSize(bytes, format!)).toEqual(await probeImage(file))
  })

  it('reads the size a decompression bomb declares without reading its pixels', async () => {
    const bytes = await source().png().toBuffer()
    bytes.writeUInt32BE(30_000, 16)
    bytes.writeUInt32BE(40_000, 20)
    expect(declaredSize(bytes, 'png')).toEqual({ width: 30_000, height: 40_000 })
  })

  it('reads no size from a header cut short, even where its bytes are a view into a larger buffer, or holding none', async () => {
    const jpeg = await source().jpeg().toBuffer()
    expect(declaredSize(jpeg.subarray(0, 20), 'jpeg')).toBeUndefined()
    const png = await source().png().toBuffer()
    expect(declaredSize(png.subarray(0, 18), 'png')).toBeUndefined()
    const zero = Buffer.from(png)
    zero.writeUInt32BE(0, 16)
    expect(declaredSize(zero, 'png')).toBeUndefined()
    expect(declaredSize(png, 'gif')).toBeUndefined()
  })

  it('looks for the size within the first HEADER_BYTES only, and leaves a file that holds it further in to libvips', async () => {
    // a damaged JPEG as large as a file may be: image-size would step through all of it
    const damaged = Buffer.alloc(8 * 1024 * 1024)
    damaged.set([0xff, 0xd8, 0xff])
    expect(declaredSize(damaged, 'jpeg')).toBeUndefined()
    // a good JPEG whose metadata segments (APP2, as an ICC profile's) put its size past HEADER_BYTES
    const jpeg = await source().jpeg().toBuffer()
    const segment = Buffer.concat([Buffer.from([0xff, 0xe2, 0xff, 0xff]), Buffer.alloc(0xffff - 2)])
    const count = Math.ceil(HEADER_BYTES / segment.length)
    const late = Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, () => segment), jpeg.subarray(2)])
    expect(declaredSize(late, 'jpeg')).toBeUndefined()
    const file = join(tmp, 'late.jpg')
    await writeFile(file, late)
    expect(await probeImage(file)).toEqual({ width: 48, height: 30 })
    // the same segments, one fewer than reaches the limit: read here
    const early = Buffer.concat([
      jpeg.subarray(0, 2),
      ...Array.from({ length: count - 1 }, () => segment),
      jpeg.subarray(2),
    ])
    expect(declaredSize(early, 'jpeg')).toEqual({ width: 48, height: 30 })
  })
})
