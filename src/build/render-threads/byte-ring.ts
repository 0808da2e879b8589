/**
 * A ring of shared memory through which a render worker hands its page files' bytes to the build's
 * thread. A transferred buffer counts as external memory in the isolate that receives it until a
 * collection frees it, and V8 counts external memory allocated since the last full collection
 * against the old generation's limit: the ~75 KB of every page's files made the build's isolate mark
 * its whole heap every 300 pages or so. Through the ring nothing is allocated per page on either side.
 *
 * One worker puts, one thread reads; the reader releases what it has read, in any order. Positions
 * only grow (a slice's `from` and `to`); the buffer's first 8 bytes hold how far the reader has
 * released, everything before that position is free to be written again. A put that does not fit
 * returns undefined: the caller hands its bytes over another way.
 */

/** Where a put's bytes are: `length` bytes at `offset` in the ring's data; `from`..`to` is what the put took. */
export interface RingSlice {
  offset: number
  length: number
  from: number
  to: number
}

/** Room reserved in the ring: its slice, and its bytes to write in place. */
export interface RingRoom {
  slice: RingSlice
  bytes: Uint8Array
}

/**
 * The writing end: `reserve` takes room for `length` bytes, to be written in place; `put` copies bytes in.
 * Both give undefined when the bytes do not fit until the reader releases more. Every slice taken must
 * reach the reader, who releases it: one that is never released holds the ring's room after it.
 */
export interface RingWriter {
  reserve(length: number): RingRoom | undefined
  /**
   * The room reserved last keeps its first `used` bytes and gives the rest back: room reserved for the
   * most bytes a text can take, then written, holds what the text took. `room` itself changes (its bytes
   * and slice), so that whoever holds it holds what it kept.
   */
  shrink(room: RingRoom, used: number): void
  put(bytes: Uint8Array): RingSlice | undefined
}

/** The reading end: a slice's bytes, in place, until the slice is released. */
export interface RingReader {
  view(slice: RingSlice): Uint8Array
  release(slice: RingSlice): void
}

/** Bytes of the buffer's header: the released position, a 64-bit integer read and written atomically. */
const HEADER_BYTES = 8

/** A ring's shared memory: `size` bytes of data after its header. */
export const createByteRing = (size: number): SharedArrayBuffer => new SharedArrayBuffer(HEADER_BYTES + size)

const partsOf = (buffer: SharedArrayBuffer) => ({
  released: new BigInt64Array(buffer, 0, 1),
  data: new Uint8Array(buffer, HEADER_BYTES),
})

/**
 * The writing end (a render worker's). A put's bytes never wrap: when they do not fit before the end
 * of the data, they go to its start and the rest of the end goes with them. `onTake` hears of every
 * room taken, put or reserved (so that its taker can hand back what a failure left unused).
 * Example: in 100 bytes, put 60 bytes, put 30 bytes -> offsets 0 and 60; a put of 20 more waits for a release.
 */
export function ringWriter(buffer: SharedArrayBuffer, onTake?: (room: RingRoom) => void): RingWriter {
  const { released, data } = partsOf(buffer)
  const size = data.byteLength
  let head = 0
  const reserve: RingWriter['reserve'] = (length) => {
    const start = head % size
    // the rest of the end, skipped when the bytes do not fit before it
    const skipped = start + length > size ? size - start : 0
    const slice = { offset: skipped ? 0 : start, length, from: head, to: head + skipped + length }
    if (slice.to - Number(Atomics.load(released, 0)) > size) return undefined
    head = slice.to
    const room = { slice, bytes: data.subarray(slice.offset, slice.offset + length) }
    onTake?.(room)
    return room
  }
  return {
    reserve,
    shrink(room, used) {
      const { slice } = room
      if (slice.to !== head || used > slice.length || used < 0)
        throw new RangeError(`a ring room shrinks only when reserved last, to at most its ${slice.length} bytes`)
      slice.to -= slice.length - used
      slice.length = used
      head = slice.to
      room.bytes = room.bytes.subarray(0, used)
    },
    put(bytes) {
      const room = reserve(bytes.byteLength)
      room?.bytes.set(bytes)
      return room?.slice
    },
  }
}

/** The reading end (the build's thread's). */
export function ringReader(buffer: SharedArrayBuffer): RingReader {
  const { released, data } = partsOf(buffer)
  let position = 0
  /** Released slices after a gap (released out of order): from -> to. */
  const waiting = new Map<number, number>()
  return {
    view: (slice) => data.subarray(slice.offset, slice.offset + slice.length),
    release(slice) {
      waiting.set(slice.from, slice.to)
      for (let to = waiting.get(position); to !== undefined; to = waiting.get(position)) {
        waiting.delete(position)
        position = to
      }
      Atomics.store(released, 0, BigInt(position))
    },
  }
}
