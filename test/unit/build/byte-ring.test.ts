import { describe, expect, it } from 'vitest'
import { createByteRing, type RingSlice, ringReader, ringWriter } from '../../../src/build/render-threads/byte-ring.js'

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill)
const text = (view: Uint8Array) => [...new Set(view)].join(',')
const ring = (size: number) => {
  const buffer = createByteRing(size)
  return { buffer, writer: ringWriter(buffer), reader: ringReader(buffer) }
}

describe('byte ring', () => {
  it('hands bytes over in place, and takes no more than it has room for', () => {
    const { buffer, writer, reader } = ring(100)
    const a = writer.put(bytes(60, 1))!
    const b = writer.put(bytes(30, 2))!
    expect([a.offset, b.offset]).toEqual([0, 60])
    expect(writer.put(bytes(20, 3))).toBeUndefined()
    expect(text(reader.view(a))).toBe('1')
    expect(reader.view(b).byteLength).toBe(30)
    // views are the ring's memory, not copies
    expect(reader.view(a).buffer).toBe(buffer)
  })

  it('starts over at the front once the reader released it; bytes never wrap around the end', () => {
    const { writer, reader } = ring(100)
    const a = writer.put(bytes(60, 1))!
    const b = writer.put(bytes(30, 2))!
    reader.release(a)
    // 10 bytes left at the end: 20 go to the front, the end's 10 are taken with them
    const c = writer.put(bytes(20, 3))!
    expect(c).toEqual({ offset: 0, length: 20, from: 90, to: 120 })
    expect(text(reader.view(b))).toBe('2')
    expect(text(reader.view(c))).toBe('3')
    // 90..120 and 60..90 are taken: 40 bytes at 20..60 are free, not 50
    expect(writer.put(bytes(50, 4))).toBeUndefined()
    expect(writer.put(bytes(40, 4))).toMatchObject({ offset: 20 })
  })

  it('frees released slices only once every slice before them is released', () => {
    const { writer, reader } = ring(100)
    const slices = [1, 2, 3, 4].map((fill) => writer.put(bytes(25, fill))) as RingSlice[]
    reader.release(slices[1]!)
    reader.release(slices[2]!)
    expect(writer.put(bytes(25, 5))).toBeUndefined()
    reader.release(slices[0]!)
    expect(writer.put(bytes(75, 5))).toMatchObject({ offset: 0, length: 75 })
    expect(text(reader.view(slices[3]!))).toBe('4')
  })

  it('reserves room to write in place, which the reader sees', () => {
    const { writer, reader } = ring(100)
    const room = writer.reserve(40)!
    room.bytes.fill(7)
    expect(text(reader.view(room.slice))).toBe('7')
    expect(writer.reserve(61)).toBeUndefined()
    expect(writer.put(bytes(60, 1))).toMatchObject({ offset: 40 })
  })

  it('gives back the end of the room reserved last: room for the most bytes a text can take keeps what it took', () => {
    const { writer, reader } = ring(100)
    const room = writer.reserve(60)!
    room.bytes.fill(5, 0, 20)
    writer.shrink(room, 20)
    expect(room.slice).toEqual({ offset: 0, length: 20, from: 0, to: 20 })
    expect(room.bytes.byteLength).toBe(20)
    expect(text(reader.view(room.slice))).toBe('5')
    // the 40 bytes given back are the next put's
    expect(writer.put(bytes(80, 6))).toMatchObject({ offset: 20, length: 80 })
  })

  it('shrinks only the room reserved last, and never grows one', () => {
    const { writer } = ring(100)
    const first = writer.reserve(30)!
    const last = writer.reserve(30)!
    expect(() => writer.shrink(first, 10)).toThrow(RangeError)
    expect(() => writer.shrink(last, 31)).toThrow(RangeError)
    writer.shrink(last, 0)
    expect(last.slice).toMatchObject({ offset: 30, length: 0, to: 30 })
  })

  it('tells its taker of every room taken, put or reserved, and of none refused', () => {
    const taken: RingSlice[] = []
    const writer = ringWriter(createByteRing(100), (room) => taken.push(room.slice))
    const put = writer.put(bytes(30, 1))
    const room = writer.reserve(30)
    writer.put(bytes(50, 2))
    expect(taken).toEqual([put, room?.slice])
  })

  it('refuses bytes larger than the ring, and takes empty ones', () => {
    const { writer } = ring(100)
    expect(writer.put(bytes(101, 1))).toBeUndefined()
    expect(writer.put(bytes(0, 1))).toMatchObject({ length: 0 })
    expect(writer.put(bytes(100, 1))).toMatchObject({ offset: 0, length: 100 })
  })
})
