import { isAbsolute, relative } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { checkApiUrl, type InitResult, initProject } from '../../index.js'
import { handleError } from '../exit.js'
import { toTerminalText } from '../terminal.js'
import { onStopSignals, SIGNAL_EXIT_CODES, type StopSignal } from './shutdown.js'

const DEMO_API = 'http://127.0.0.1:4010'

/** `path` as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
const shellWord = (path: string): string =>
  /^[\w./@%+:,=-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`

/** The shell's current folder, or undefined when it was removed since the shell entered it. */
function currentFolder(): string | undefined {
  try {
    return process.cwd()
  } catch {
    return undefined
  }
}

/** The prompt was left with Ctrl-C or Ctrl-D: nothing is written, the exit code is a signal's (130). */
const CANCELLED = Symbol('cancelled')
const CANCELLED_EXIT_CODE = 130

/** On a terminal only: the content API origin, Enter for the demo API (undefined). Asked again after a bad answer. */
async function askApiUrl(): Promise<string | undefined | typeof CANCELLED> {
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  // Ctrl-C reaches readline as a key, not as a signal; Ctrl-D closes the prompt: either rejects the question
  // (closing the prompt from Ctrl-C's handler would leave it unsettled, and the process would exit 13)
  const cancel = new AbortController()
  rl.on('SIGINT', () => cancel.abort())
  try {
    for (;;) {
      const answer = await rl
        .question(`Content API of your TYPO3 (EXT:headless), e.g. https://cms.example.com [${DEMO_API}, the demo]: `, {
          signal: cancel.signal,
        })
        .catch((): typeof CANCELLED => CANCELLED)
      if (answer === CANCELLED) return CANCELLED
      if (answer.trim() === '') return undefined
      try {
        return checkApiUrl(answer.trim(), 'The answer')
      } catch (error) {
        process.stdout.write(`${toTerminalText((error as Error).message)}\n`)
      }
    }
  } finally {
    rl.close()
  }
}

/** `site init [dir]`: scaffolds a site project and says what to run next. */
export async function runInitCommand(
  dir: string,
  opts: { api?: string; force?: boolean },
  global: { verbose?: boolean },
): Promise<number> {
  try {
    const onTerminal = process.stdin.isTTY === true && process.stdout.isTTY === true
    const apiUrl = opts.api ?? (onTerminal ? await askApiUrl() : undefined)
    if (apiUrl === CANCELLED) {
      process.stdout.write('\nCancelled: no site was created\n')
      return CANCELLED_EXIT_CODE
    }
    // not at the prompt, where Ctrl-C is a key: while the files are written, a signal removes what was written
    const controller = new AbortController()
    const release = onStopSignals(controller)
    let result: InitResult
    try {
      result = await initProject({ dir, apiUrl, force: opts.force === true, signal: controller.signal })
    } catch (error) {
      if (!controller.signal.aborted) throw error
      process.stdout.write('Cancelled: no site was created\n')
      return SIGNAL_EXIT_CODES[controller.signal.reason as StopSignal]
    } finally {
      release()
    }
    const here = currentFolder()
    const fromHere = here === undefined ? result.dir : relative(here, result.dir)
    const where = fromHere.startsWith('..') || isAbsolute(fromHere) ? result.dir : fromHere || '.'
    // `cd -x` reads a folder named -x as options: `./` keeps it a folder
    const cdTo = where.startsWith('-') ? `./${where}` : where
    const lines = [
      `Created a site in ${result.dir} (${result.files.length} files: templates/, config/, public/, package.json, tsconfig.json, README.md, .gitignore, .github/workflows/publish.yml)`,
      'Next:',
      ...(where === '.' ? [] : [`  cd ${shellWord(cdTo)}`]),
      '  npm install',
      ...(apiUrl ? [] : ['  npx site demo-api      # the demo content API; leave it running']),
      '  npm run dev            # live preview on http://127.0.0.1:3000',
      'README.md says how to point the site at your TYPO3 and how to publish it.',
    ]
    process.stdout.write(`${toTerminalText(lines.join('\n'))}\n`)
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'init' })
  }
}
