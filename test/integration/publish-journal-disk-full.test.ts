/**
 * The publish journal on a disk that fills up: a real file-size limit (`ulimit -f`) on a process that appends
 * events until the kernel refuses. The write that reaches the limit is cut short by the kernel; the event in
 * it must not be acknowledged, and every event that was must replay from the file, with no torn line.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JOURNAL_FILE, replayJournal } from '../../src/publish/journal.js'
import { REPO_ROOT } from './build-helpers.js'

const run = promisify(execFile)
/** The file-size limit, in bash's 1,024-byte blocks: about sixty events. */
const LIMIT_BLOCKS = 8

// The child appends one event at a time; with SIGXFSZ handled, the kernel answers EFBIG instead of ending it.
const CHILD = `
process.on('SIGXFSZ', () => {})
const { openJournal } = await import(process.env.JOURNAL_MODULE)
const journal = await openJournal(process.env.JOURNAL_DIR, () => {})
const acked = []
let refused = 0
for (let i = 1; i <= 200; i++) {
  try {
    acked.push((await journal.append({ at: i, pages: ['/page-' + String(i).padStart(110, '0')] })).seq)
  } catch {
    refused++
  }
}
// a health check each asks the journal to try again: those asked at once share one try
const retries = Array.from({ length: 100 }, () => journal.retry())
const queued = journal.queued()
await Promise.all(retries)
await journal.close()
console.log(JSON.stringify({ acked, refused, queued }))
`

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-journal-full-'))
})
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('publish journal on a full disk', () => {
  it('acknowledges no event of a short write, replays every one it did, and tries again once for retries asked together', async () => {
    const { stdout } = await run(
      'bash',
      ['-c', `ulimit -f ${LIMIT_BLOCKS} && exec "$0" --input-type=module -e "$1"`, process.execPath, CHILD],
      {
        env: {
          ...process.env,
          JOURNAL_MODULE: pathToFileURL(join(REPO_ROOT, 'dist/publish/journal.js')).href,
          JOURNAL_DIR: dir,
        },
      },
    )
    const { acked, refused, queued } = JSON.parse(stdout) as { acked: number[]; refused: number; queued: number }
    expect(acked.length).toBeGreaterThan(10)
    expect(refused).toBeGreaterThan(0)
    expect(queued).toBe(1)
    const bytes = await readFile(join(dir, JOURNAL_FILE))
    expect(bytes.length).toBeLessThanOrEqual(LIMIT_BLOCKS * 1024)
    expect(bytes.includes(0)).toBe(false)
    expect(bytes.at(-1)).toBe(0x0a)
    expect(replayJournal(bytes.toString('utf8')).pending.map((event) => event.seq)).toEqual(acked)
  })
})
