import type { BuildFailure, Message } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { toTemplatesError } from '../../../src/hydration/errors.js'

const failure = (count: number): BuildFailure => {
  const errors = Array.from(
    { length: count },
    (_, i): Message => ({
      id: '',
      pluginName: '',
      text: `Could not resolve "node:fs" (${i})`,
      location: null,
      notes: [],
      detail: undefined,
    }),
  )
  return Object.assign(new Error('Build failed'), { errors, warnings: [] })
}

describe('toTemplatesError', () => {
  // a template importing the engine's Node entry pulled in hundreds of modules, each a line of its own
  it('lists at most 20 problems and counts the rest, instead of hundreds of lines of one cause', () => {
    const message = (toTemplatesError('/project', failure(295)) as Error).message
    const lines = message.split('\n')
    expect(lines[0]).toBe('Templates failed to compile:')
    expect(lines.slice(1, 21)).toEqual(Array.from({ length: 20 }, (_, i) => `  Could not resolve "node:fs" (${i})`))
    expect(lines.slice(21)).toEqual(['  … and 275 more'])
  })

  it('lists every problem when there are 20 or fewer', () => {
    const message = (toTemplatesError('/project', failure(20)) as Error).message
    expect(message.split('\n')).toHaveLength(21)
    expect(message).not.toContain('more')
  })
})
