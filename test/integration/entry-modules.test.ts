/**
 * What the CLI's workers load when they enter the engine: the build's and the publisher's entries leave sharp and
 * libvips to the image process of each build.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-helpers.js'

const run = promisify(execFile)

/** The shared objects and the engine's modules a fresh Node process has loaded once it imported `entry` (in dist/). */
async function loadedBy(entry: string): Promise<{ libraries: string[]; modules: string[] }> {
  const url = pathToFileURL(join(REPO_ROOT, 'dist', entry)).href
  const script = `
    await import(${JSON.stringify(url)})
    const { readFileSync } = await import('node:fs')
    const libraries = [...new Set(readFileSync('/proc/self/maps', 'utf8').split('\\n').map((l) => l.split(/\\s+/)[5] ?? '').filter((p) => p.endsWith('.so') || p.includes('.so.') || p.endsWith('.node')))]
    const { createRequire } = await import('node:module')
    const modules = Object.keys(createRequire(import.meta.url).cache)
    console.log(JSON.stringify({ libraries, modules }))`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT })
  return JSON.parse(stdout)
}

describe.each(['build-api.js', 'publish-api.js'])('the workers enter the engine at %s', (entry) => {
  it('without sharp and libvips', async () => {
    const { libraries, modules } = await loadedBy(entry)
    expect(libraries.filter((path) => /vips|sharp/.test(path))).toEqual([])
    expect(modules.filter((path) => /[\\/]node_modules[\\/]@?(img[\\/])?sharp/.test(path))).toEqual([])
  })
})

it('while the whole programmatic API does load them (the demo API makes photographs): the check sees it', async () => {
  const { libraries, modules } = await loadedBy('index.js')
  expect(libraries.some((path) => /vips/.test(path))).toBe(true)
  expect(modules.some((path) => /[\\/]node_modules[\\/]sharp[\\/]/.test(path))).toBe(true)
})
