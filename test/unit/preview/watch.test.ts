import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { watchProject } from '../../../src/preview/watch.js'

describe('watchProject', () => {
  it('batches a burst of changes and never overlaps reloads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-watch-'))
    const batches: string[][] = []
    let running = 0
    let overlapped = false
    let release: () => void = () => {}
    const watcher = await watchProject({
      paths: [dir],
      debounceMs: 150,
      onChange: async (changed) => {
        overlapped ||= running > 0
        running++
        batches.push(changed.map((file) => file.slice(dir.length + 1)).sort())
        if (batches.length === 1) await new Promise<void>((done) => (release = done))
        running--
      },
    })
    try {
      await Promise.all(['a.txt', 'b.txt', 'c.txt'].map((name) => writeFile(join(dir, name), name)))
      await expect.poll(() => batches.length, { timeout: 5000 }).toBe(1)
      expect(batches[0]).toEqual(['a.txt', 'b.txt', 'c.txt'])
      await writeFile(join(dir, 'd.txt'), 'd') // arrives during the first reload
      await new Promise((done) => setTimeout(done, 300))
      expect(batches.length).toBe(1)
      release()
      await expect.poll(() => batches.length, { timeout: 5000 }).toBe(2)
      expect(batches[1]).toEqual(['d.txt'])
      expect(overlapped).toBe(false)
    } finally {
      release()
      await watcher.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('watchProject, a file saved again at once', () => {
  it('takes a save that follows, within chokidar’s 50 ms, the change its reload already read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-watch-'))
    const file = join(dir, 'Footer.tsx')
    await writeFile(file, 'v0')
    const seen: string[] = []
    let release: () => void = () => {}
    let secondRead: () => void = () => {}
    const read = new Promise<void>((done) => (secondRead = done))
    const watcher = await watchProject({
      paths: [dir],
      debounceMs: 80,
      onChange: async () => {
        seen.push(await readFile(file, 'utf8'))
        if (seen.length === 1) await new Promise<void>((done) => (release = done))
        if (seen.length === 2) secondRead()
      },
    })
    try {
      await writeFile(file, 'v1')
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1)
      // saved during the first reload: its change is passed on, and the next reload starts as the first ends
      await writeFile(file, 'v2')
      await new Promise((done) => setTimeout(done, 20))
      release()
      await read
      // saved again right after that reload read the file: chokidar drops this change (50 ms after the last)
      await writeFile(file, 'v3')
      await expect.poll(() => seen.at(-1), { timeout: 3000 }).toBe('v3')
    } finally {
      release()
      await watcher.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('watchProject, a save through a temporary file', () => {
  // `sed -i` and editors' atomic saves write a new file beside the one saved, then rename it over it: the reload
  // named the temporary file, which no longer existed, as a change
  it('names only the file saved, not the temporary file renamed over it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-watch-'))
    const file = join(dir, 'Footer.tsx')
    await writeFile(file, 'v0')
    const batches: string[][] = []
    const watcher = await watchProject({
      paths: [dir],
      debounceMs: 500,
      onChange: async (changed) => {
        batches.push(changed.map((path) => path.slice(dir.length + 1)))
      },
    })
    try {
      const temporary = join(dir, 'sedAb12Cd')
      await writeFile(temporary, 'v1')
      // long enough for the watcher to see the temporary file (a slow disk, a large file), within one batch
      await new Promise((done) => setTimeout(done, 200))
      await rename(temporary, file)
      await expect.poll(() => batches.length, { timeout: 5000 }).toBe(1)
      await new Promise((done) => setTimeout(done, 300))
      expect(batches).toEqual([['Footer.tsx']])
      // a file removed is a change, though it came after the watch started
      await rm(file)
      await expect.poll(() => batches.length, { timeout: 5000 }).toBe(2)
      expect(batches[1]).toEqual(['Footer.tsx'])
    } finally {
      await watcher.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
