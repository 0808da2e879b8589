import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bundleClient, createClientBundler } from '../../src/hydration/bundle.js'
import { loadTemplates } from '../../src/hydration/node-registry.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** esbuild service processes this process started (any of its threads), from /proc. */
async function esbuildChildren(): Promise<number> {
  let count = 0
  for (const task of await readdir('/proc/self/task')) {
    const children = (await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => '')).split(' ')
    for (const pid of children.filter(Boolean)) {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
      if (command.includes('--service=')) count++
    }
  }
  return count
}

/** The count once it settles at `expected` (a stopped service is signalled, not waited for), or as it is after 2 s. */
async function settledEsbuildChildren(expected: number): Promise<number> {
  const deadline = Date.now() + 2000
  let count = await esbuildChildren()
  while (count !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    count = await esbuildChildren()
  }
  return count
}

describe("esbuild's service", () => {
  it('is stopped once a bundle is made, and kept while a watch-mode bundler lives', async () => {
    // not from the bundle cache: these make their bundles with esbuild
    await bundleClient({ root, minify: true, cache: false })
    await loadTemplates(root, { cache: false })
    expect(await settledEsbuildChildren(0)).toBe(0)

    const bundler = createClientBundler({ root, minify: false })
    await bundler.rebuild()
    await loadTemplates(root)
    expect(await settledEsbuildChildren(1)).toBe(1)
    await bundler.rebuild()
    await bundler.dispose()
    expect(await settledEsbuildChildren(0)).toBe(0)
  })
})
