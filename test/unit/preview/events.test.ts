import { describe, expect, it } from 'vitest'
import { createReloadEvents } from '../../../src/preview/events.js'

const decoder = new TextDecoder()

describe('createReloadEvents', () => {
  it('streams reload events to every open tab and forgets closed ones', async () => {
    const hub = createReloadEvents()
    const abort = new AbortController()
    const a = hub.connect(abort.signal)
    const b = hub.connect()
    expect(a.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(hub.size).toBe(2)
    const readerA = a.body!.getReader()
    const readerB = b.body!.getReader()
    expect(decoder.decode((await readerA.read()).value)).toContain('retry:')
    await readerB.read()
    hub.send('reload')
    expect(decoder.decode((await readerA.read()).value)).toBe('event: reload\ndata: \n\n')
    expect(decoder.decode((await readerB.read()).value)).toBe('event: reload\ndata: \n\n')
    abort.abort()
    expect(hub.size).toBe(1)
    expect((await readerA.read()).done).toBe(true)
    await readerB.cancel()
    expect(hub.size).toBe(0)
    hub.send('reload') // nobody listening: no throw
  })

  it('ends every stream on close', async () => {
    const hub = createReloadEvents()
    const reader = hub.connect().body!.getReader()
    await reader.read()
    hub.close()
    expect((await reader.read()).done).toBe(true)
    expect(hub.size).toBe(0)
  })
})
