import { describe, expect, it } from 'vitest'
import { codeFrame } from '../../../src/preview/problems.js'

describe('codeFrame', () => {
  it('numbers the lines around the problem, marks its line and points at its column', () => {
    const source = ['one', 'two', 'three = (', 'four', 'five', 'six'].join('\n')
    expect(codeFrame(source, 3, 9)).toBe(
      ['  1 | one', '  2 | two', '> 3 | three = (', '    |         ^', '  4 | four', '  5 | five'].join('\n'),
    )
  })

  it('pads the numbers to the widest and stops at the file’s ends', () => {
    const source = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')
    expect(codeFrame(source, 10, 1)).toBe(['   8 | line 8', '   9 | line 9', '> 10 | line 10', '     | ^'].join('\n'))
    expect(codeFrame('only', 1, 3)).toBe(['> 1 | only', '    |   ^'].join('\n'))
  })
})
