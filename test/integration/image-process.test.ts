import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createImageProcess } from '../../src/media/image-process.js'
import { planVariants } from '../../src/media/variants.js'

/** A 1200x800 JPEG of noise (a photograph compresses like it; a flat colour would not). */
async function photo(): Promise<Buffer> {
  const width = 1200
  const height = 800
  const pixels = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    pixels[i] = (seed >> 16) & 0xff
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer()
}

/** The image processes this test file's process started (vitest runs each file in a process of its own), from /proc. */
function imageProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // the parent's pid is the 4th field, after the command in parentheses
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('image-process-main')
      } catch {
        return false // it ended meanwhile
      }
    })
    .map(Number)
}

let dir: string
/** The image file the process reads: a 1200x800 photograph, or the first bytes of one. */
let file: string
let truncated: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-image-process-'))
  const bytes = await photo()
  file = join(dir, 'photo.jpg')
  truncated = join(dir, 'truncated.jpg')
  await writeFile(file, bytes)
  await writeFile(truncated, bytes.subarray(0, 2000))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('the image process', () => {
  it('reads sizes and encodes every variant, as sharp reads them back', async () => {
    const images = createImageProcess()
    try {
      expect(await images.probe(file)).toEqual({ width: 1200, height: 800 })
      const plan = planVariants(1200, 800, 'jpeg', [400, 800, 1600])!
      const variants = await images.encode(file, plan, 100_000_000)
      expect(variants.map(({ width, format }) => `${width} ${format}`)).toEqual([
        '1200 avif',
        '1200 webp',
        '1200 jpeg',
        '800 avif',
        '800 webp',
        '800 jpeg',
        '400 avif',
        '400 webp',
        '400 jpeg',
      ])
      for (const variant of variants) {
        const meta = await sharp(variant.bytes).metadata()
        expect(meta.width).toBe(variant.width)
        expect(meta.format).toBe(variant.format === 'avif' ? 'heif' : variant.format)
      }
    } finally {
      await images.close()
    }
  })

  it('fails a bad image and goes on with the next', async () => {
    const images = createImageProcess()
    try {
      const plan = planVariants(1200, 800, 'jpeg', [400])!
      await expect(images.encode(truncated, plan, 100_000_000)).rejects.toThrow(/VipsJpeg|premature|truncated|corrupt/i)
      await expect(images.encode(file, plan, 500 * 500)).rejects.toThrow(/pixel limit/i)
      await expect(images.probe(join(dir, 'missing.jpg'))).rejects.toThrow(/missing\.jpg/)
      expect(await images.probe(file)).toEqual({ width: 1200, height: 800 })
    } finally {
      await images.close()
    }
  })

  it("tells a bad image's error in one line, without the path it read the image from", async () => {
    // an upload cut short: libvips names the file at each failed seek before it says what is wrong
    const noise = { type: 'gaussian', mean: 128, sigma: 30 } as const
    const avif = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#000', noise } })
      .avif()
      .toBuffer()
    const cut = join(dir, 'cut.avif')
    await writeFile(cut, avif.subarray(0, avif.length >> 1))
    const badHuffman = join(dir, 'bad-huffman.jpg')
    await writeFile(badHuffman, Buffer.concat([(await photo()).subarray(0, 200), Buffer.alloc(3000, 0xff)]))
    const images = createImageProcess()
    try {
      const plan = planVariants(300, 200, 'avif', [400])!
      const cutError = await images.encode(cut, plan, 100_000_000).catch((error: Error) => error.message)
      expect(cutError).toMatch(/^heif: Invalid input: .*\)$/)
      const huffmanError = await images.probe(badHuffman).catch((error: Error) => error.message)
      expect(huffmanError).toBe('Input file has corrupt header: VipsJpeg: Bogus Huffman table definition')
      for (const message of [cutError, huffmanError]) {
        expect(message).not.toContain('\n')
        expect(message).not.toContain(dir)
      }
    } finally {
      await images.close()
    }
  })

  it('stops at once when closed with requests pending (a failed build), and starts again when asked', async () => {
    const images = createImageProcess()
    const plan = planVariants(1200, 800, 'jpeg', [400, 800, 1200])!
    const pending = images.encode(file, plan, 100_000_000)
    pending.catch(() => {})
    await images.close()
    await expect(pending).rejects.toThrow('the image process stopped (SIGKILL)')
    try {
      expect(await images.probe(file)).toEqual({ width: 1200, height: 800 })
    } finally {
      await images.close()
    }
  })

  it('reads again, one at a time, the images it read together when it stopped; then a stop fails its one image', async () => {
    const images = createImageProcess()
    try {
      const plan = planVariants(1200, 800, 'jpeg', [400, 800, 1200])!
      const both = [images.encode(file, plan, 100_000_000), images.encode(file, plan, 100_000_000)]
      await expect.poll(imageProcesses).toHaveLength(1)
      const [first] = imageProcesses()
      process.kill(first!, 'SIGKILL') // as the kernel's out-of-memory killer would, or a file that crashes libvips
      for (const variants of await Promise.all(both)) expect(variants).toHaveLength(9)
      const [second] = imageProcesses()
      expect(second).toBeDefined()
      expect(second).not.toBe(first)

      // one image at a time now: the process stopping under it fails that image alone
      const alone = images.encode(file, plan, 100_000_000)
      alone.catch(() => {})
      process.kill(second!, 'SIGKILL')
      await expect(alone).rejects.toThrow('the image process stopped (SIGKILL)')
      expect(await images.probe(file)).toEqual({ width: 1200, height: 800 })
    } finally {
      await images.close()
    }
  })

  it('fails its requests, never hangs, when it cannot start', async () => {
    const images = createImageProcess()
    const node = process.execPath
    process.execPath = '/nonexistent/node'
    try {
      await expect(images.probe(file)).rejects.toThrow(/^the image process failed: .*ENOENT/)
    } finally {
      process.execPath = node
    }
    expect(await images.probe(file)).toEqual({ width: 1200, height: 800 })
    await images.close()
  })
})
