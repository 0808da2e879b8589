/**
 * The one escaping of what the CLI prints for people: the terminal and CI logs. API content
 * (titles, links, redirect targets) reaches these lines; none of it may move the cursor, colour
 * or clear the screen, start a new line, or be read by GitHub Actions as a workflow command.
 */

/**
 * Escaped wherever they are: C0 controls (but tab) and DEL, C1 controls, line and paragraph
 * separators, bidirectional overrides and isolates (text that reads otherwise than it is).
 */
const UNSAFE_CHAR_RE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
// GitHub Actions reads a line as a command when it starts with `::` after leading white space,
// and still reads the old `##[command]` form anywhere in a line.
const COMMAND_START_RE = /^(\s*):(?=:)/
const OLD_COMMAND_RE = /##\[/g

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' }

const escapeChar = (char: string): string => {
  const short = SHORT[char]
  if (short) return short
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * One line as it may be printed: controls escaped (`\n`, `\x1b`, `\u202e`), and a GitHub Actions
 * workflow command neutralised (its first `:` written `\x3a`, the `[` of `##[` written `\x5b`).
 * Example: `::error::pwned\r\n` -> `\x3a:error::pwned\r\n` (the escapes as text).
 */
export function toTerminalLine(text: string): string {
  return text
    .replace(UNSAFE_CHAR_RE, escapeChar)
    .replace(COMMAND_START_RE, '$1\\x3a')
    .replace(OLD_COMMAND_RE, '##\\x5b')
}

/** Text of several lines (an error message, commander's usage): each line escaped, the line breaks kept. */
export const toTerminalText = (text: string): string => text.split('\n').map(toTerminalLine).join('\n')

/** Writes one line of a server's log to stderr, escaped (CMS text and paths pass through these lines). */
export const printLine = (line: string): void => {
  process.stderr.write(`${toTerminalText(line)}\n`)
}
