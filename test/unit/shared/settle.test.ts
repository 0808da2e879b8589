import { describe, expect, it } from 'vitest'
import { settleInOrder } from '../../../src/shared/settle.js'

const later = <T>(ms: number, outcome: () => T) => new Promise<T>((done) => setTimeout(done, ms)).then(outcome)

describe('settleInOrder', () => {
  it('rejects with the first failure in list order, though a later one failed first', async () => {
    const browser = later(30, () => {
      throw new Error('the browser bundle: "sharp" is imported by templates/content/Widget.tsx')
    })
    const registry = later(0, () => {
      throw new Error('Dynamic require of "child_process" is not supported')
    })
    await expect(settleInOrder([browser, registry])).rejects.toThrow(/imported by templates/)
  })

  it('gives the values in list order when every promise fulfils', async () => {
    expect(await settleInOrder([later(20, () => 'a'), later(0, () => 1)])).toEqual(['a', 1])
  })
})
