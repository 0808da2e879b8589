/**
 * Server commands listen for SIGINT and SIGTERM before they print that they are ready: a supervisor (systemd, a
 * test, a CI step) may send its stop as soon as it reads that line, and a signal nobody listens for ends the
 * process by its default action, with nothing closed. Each command runs in this process; its ready line is
 * caught on its way to stdout, the listeners counted there, and a SIGTERM emitted at once.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runDemoApiCommand } from '../../src/cli/commands/demo-api.js'
import { runServeCommand } from '../../src/cli/commands/serve.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-ready-signals-'))
})
afterAll(async () => {
  vi.restoreAllMocks()
  await rm(dir, { recursive: true, force: true })
})

/** Runs `command` until the SIGTERM sent on its ready line; resolves to its exit code and the listeners then. */
async function stopOnReady(ready: RegExp, command: () => Promise<number>) {
  const before = process.listenerCount('SIGTERM')
  let listening: number | undefined
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    if (listening === undefined && ready.test(String(chunk))) {
      listening = process.listenerCount('SIGTERM') - before
      queueMicrotask(() => process.emit('SIGTERM', 'SIGTERM'))
    }
    return true
  })
  try {
    return { code: await command(), listening }
  } finally {
    write.mockRestore()
  }
}

describe('server commands and a SIGTERM right after their ready line', () => {
  it('site serve listens before it says where it serves, and exits 0', async () => {
    const run = await stopOnReady(/^Serving /, () => runServeCommand(dir, { port: 0, host: '127.0.0.1' }, {}))
    expect(run).toEqual({ code: 0, listening: 1 })
  })

  it('site demo-api listens before it says where it answers, and exits 0', async () => {
    const run = await stopOnReady(/^Demo content API on /, () =>
      runDemoApiCommand({ port: 0, host: '127.0.0.1', latency: 0 }, {}),
    )
    expect(run).toEqual({ code: 0, listening: 1 })
  })
})
