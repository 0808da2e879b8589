/** CMS text in what the CLI prints may break no line and start no GitHub Actions command. */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { printLine, toTerminalLine, toTerminalText } from '../../../src/cli/terminal.js'

/** What GitHub Actions' runner reads as a command: `::` first after white space, or `##[` anywhere. */
const isWorkflowCommand = (line: string): boolean => /^\s*::/.test(line) || line.includes('##[')

describe('toTerminalLine', () => {
  it.each([
    ['::error::pwned', '\\x3a:error::pwned'],
    ['  \t::warning file=x::y', '  \t\\x3a:warning file=x::y'],
    ['\u00a0::set-output name=x::y', '\u00a0\\x3a:set-output name=x::y'],
    ['title ##[error]old form', 'title ##\\x5berror]old form'],
    ['a\n::error::b', 'a\\n::error::b'],
    ['a\r\nb', 'a\\r\\nb'],
    ['\u001b[31mred\u001b[0m \u001b]0;title\u0007', '\\x1b[31mred\\x1b[0m \\x1b]0;title\\x07'],
    ['NUL\u0000 DEL\u007f C1\u0085\u009b', 'NUL\\x00 DEL\\x7f C1\\x85\\x9b'],
    ['bidi \u202eevil\u202c \u2066x\u2069 sep\u2028', 'bidi \\u202eevil\\u202c \\u2066x\\u2069 sep\\u2028'],
    ['plain /pl/o-nas: zażółć 😀 a::b', 'plain /pl/o-nas: zażółć 😀 a::b'],
    ['tab\tstays', 'tab\tstays'],
  ])('%j -> %j', (input, output) => expect(toTerminalLine(input)).toBe(output))

  it('never lets any text break a line, run a control, or be a workflow command', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (prefix, text) => {
        for (const input of [text, `${prefix}\n${text}`, `::${text}`, ` ##[${text}`]) {
          const line = toTerminalLine(input)
          expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
          expect(isWorkflowCommand(line), JSON.stringify(line)).toBe(false)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('toTerminalText', () => {
  it('keeps the line breaks of a message and escapes each line', () => {
    expect(toTerminalText('Templates failed to compile:\n  ::error::x\n\u001b[2J')).toBe(
      'Templates failed to compile:\n  \\x3a:error::x\n\\x1b[2J',
    )
  })
})

describe('printLine: the servers’ log lines (preview, serve)', () => {
  it('escapes what it writes to stderr', () => {
    const written: string[] = []
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    try {
      printLine('preview: Rendering /x failed: ::error::pwned\n::warning::too')
    } finally {
      spy.mockRestore()
    }
    expect(written).toEqual([`${toTerminalText('preview: Rendering /x failed: ::error::pwned\n::warning::too')}\n`])
    expect(written.join('')).not.toMatch(/^\s*::/m)
  })
})
