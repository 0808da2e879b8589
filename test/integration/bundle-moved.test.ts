/**
 * The browser bundle of a project does not depend on where the project sits: CI checks a site out into a
 * folder of its own and builds over the output it restored, so asset names that changed with the folder
 * would make every page and chunk new, and upload the whole site, on each run in another folder.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleClient } from '../../src/hydration/bundle.js'
import { REPO_ROOT } from './build-helpers.js'

let work: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'site-bundle-moved-'))
  // two folders of the same depth: the engine's own sources are the same relative path from either
  for (const name of ['checkout-a', 'checkout-b'])
    await cp(join(REPO_ROOT, 'templates'), join(work, name, 'templates'), { recursive: true })
})

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the browser bundle of a project moved to another folder', () => {
  it('has the same content-hashed file names', async () => {
    const names = async (name: string) =>
      (await bundleClient({ root: join(work, name), cache: false })).files.map((file) => file.path).sort()
    expect(await names('checkout-b')).toEqual(await names('checkout-a'))
  }, 60_000)
})
