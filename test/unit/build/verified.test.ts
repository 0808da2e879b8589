/** The record of what a build checked of its output, kept in the project's cache: read as untrusted. */
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readVerified, verifiedAs, verifiedRecordFile, writeVerified } from '../../../src/build/incremental/verified.js'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-verified-'))
})
afterEach(() => rm(root, { recursive: true, force: true }))

const HASH = '0123456789abcdef'
const STAMP = '42:1000:1764200000000.123:1764200000000.456'

describe('verified record', () => {
  it('reads back what was written, one record per output folder under .site/outputs', async () => {
    const file = verifiedRecordFile(root, '/srv/site/out')
    expect(file.startsWith(join(root, '.site/outputs/'))).toBe(true)
    expect(verifiedRecordFile(root, '/srv/site/out/')).toBe(file)
    expect(verifiedRecordFile(root, '/srv/other')).not.toBe(file)
    expect(
      writeVerified(file, [
        ['index.html', STAMP, HASH],
        ['pl/o-nas/_payload.json', STAMP, 'fedcba9876543210'],
        ['tab\tin/name.html', STAMP, HASH],
      ]),
    ).toBe(true)
    expect(readVerified(file, 100)).toEqual(
      new Map([
        ['index.html', verifiedAs(STAMP, HASH)],
        ['pl/o-nas/_payload.json', verifiedAs(STAMP, 'fedcba9876543210')],
      ]),
    )
  })

  it('matches a line only whole, and reads nothing over its bound', async () => {
    const file = verifiedRecordFile(root, '/out')
    writeVerified(file, [['a.html', STAMP, HASH]])
    const good = await readFile(file, 'utf8')
    const bad = [`${STAMP}\tnot-a-hash\tb.html`, `${STAMP}\t${HASH}\t`, `${HASH}\tc.html`, 'd.html', '\u0000\u0001']
    await writeFile(file, `${bad.join('\n')}\n${good}`)
    const read = readVerified(file, 100)
    expect(read.get('a.html')).toBe(verifiedAs(STAMP, HASH))
    // what a bad line holds is never a stamp and a hash the build would ask for
    expect([...read.values()].filter((line) => line === verifiedAs(STAMP, HASH))).toHaveLength(1)
    expect(read.has('d.html')).toBe(false)
    // a record larger than the output could need is not read at all
    await writeFile(file, good + 'x'.repeat(8 * 4096))
    expect(readVerified(file, 2).size).toBe(0)
    expect(readVerified(join(root, 'missing.tsv'), 100).size).toBe(0)
  })

  it('keeps the records of the eight output folders built last, and of every one built in the last hour', async () => {
    const name = (n: number) => verifiedRecordFile(root, `/out-${n}`).split('/').pop()
    for (let n = 0; n < 12; n++) {
      const file = verifiedRecordFile(root, `/out-${n}`)
      writeVerified(file, [['a.html', STAMP, HASH]])
      // built in this order, the first ten of them days ago
      if (n < 10) await utimes(file, n, n)
    }
    const kept = await readdir(dirname(verifiedRecordFile(root, '/out-0')))
    expect(kept).toHaveLength(8)
    expect(kept).toEqual(expect.arrayContaining([name(11), name(10), name(9), name(4)]))
    expect(kept).not.toContain(name(3))
    // within the hour, none goes
    for (let n = 12; n < 20; n++) writeVerified(verifiedRecordFile(root, `/out-${n}`), [])
    const now = await readdir(dirname(verifiedRecordFile(root, '/out-0')))
    expect(now).toEqual(expect.arrayContaining([name(19), name(11), name(10)]))
    expect(now).toHaveLength(10)
  })

  it('tells the build it could not write, and leaves nothing behind', async () => {
    await writeFile(join(root, '.site'), 'a file where the cache folder would be')
    expect(writeVerified(verifiedRecordFile(root, '/out'), [['a.html', STAMP, HASH]])).toBe(false)
  })
})
