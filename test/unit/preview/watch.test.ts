import { mkdtemp, rm, writeFile } from 'node:fs/promises'
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
