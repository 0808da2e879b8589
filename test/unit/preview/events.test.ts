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

  it('sends the current problem to each tab that connects, until the next reload', async () => {
    const hub = createReloadEvents()
    hub.send('problem', '{"message":"a\nb"}')
    const late = hub.connect().body!.getReader()
    const first = decoder.decode((await late.read()).value)
    const pending = first.includes('event: problem') ? first : first + decoder.decode((await late.read()).value)
    expect(pending).toContain('event: problem\ndata: {"message":"a\ndata: b"}\n\n')
    hub.send('reload')
    const after = hub.connect().body!.getReader()
    expect(decoder.decode((await after.read()).value)).toBe('retry: 1000\n: connected\n\n')
    hub.close()
  })

  it('tells each tab that connects which version the last reload announced', async () => {
    // a tab whose page came before a reload, but whose stream connected after it, would miss that reload
    const hub = createReloadEvents()
    const first = hub.connect().body!.getReader()
    expect(decoder.decode((await first.read()).value)).toBe('retry: 1000\n: connected\n\n')
    hub.send('reload', '1700000000001')
    const late = hub.connect().body!.getReader()
    expect(decoder.decode((await late.read()).value)).toBe('retry: 1000\n: connected\n\n')
    expect(decoder.decode((await late.read()).value)).toBe('event: version\ndata: 1700000000001\n\n')
    hub.close()
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
