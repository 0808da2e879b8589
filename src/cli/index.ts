import { createRequire } from 'node:module'
import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { handleError } from './exit.js'
import { toTerminalText } from './terminal.js'

/**
 * The `site` command: parses flags into an InlineConfig and calls the
 * programmatic API in src/index.ts. No business rules here. Heavy modules are
 * imported lazily so that `site --help` answers at once.
 */

/** `version` of package.json (dist/cli/ and src/cli/ both sit two folders below it). */
const packageVersion = (): string =>
  (createRequire(import.meta.url)('../../package.json') as { version: string }).version

const toInt = (name: string, min: number, max: number) => (value: string) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max)
    throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`)
  return n
}

/** `--only 12,/pl/o-nas --only 14` -> ['12', '/pl/o-nas', '14']: items are checked by the build, which names a bad one. */
const collectList = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value.split(',').map((item) => item.trim()),
]

// Flags that set config options go through as given: the config layer checks them with those
// options' rules (src/config/validate.ts validateFlags), so a value is validated in one place.
const asNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value))

export function createProgram(): Command {
  const program = new Command('site')
    .description('Publish a multilingual website from a TYPO3 EXT:headless content API.')
    .version(packageVersion(), '-V, --version', 'print the version of site')
    .option('--verbose', 'print stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(toTerminalText(text)) })

  program
    .command('build')
    .description('Render every page of every locale to static files (the command CI runs).')
    .option('--config <file>', 'config file (.ts, .mjs, .js or .json)', undefined)
    .option('--site <host>', 'site to build, by hostname, when several are configured')
    .option('--api <url>', 'content API origin, overrides api.baseUrl')
    .option('--out <dir>', 'output folder (default: build.outDir, .output/public)')
    .option('--concurrency <n>', 'parallel API requests, 1 to 64 (default: build.concurrency, 4)', asNumber)
    .option(
      '--max-pages <n>',
      'most pages the build crawls before it fails (default: build.maxPages, 200000)',
      asNumber,
    )
    .option(
      '--max-page-bytes <n>',
      'largest page HTML in bytes before the build fails (default: build.maxPageBytes, 16 MiB)',
      asNumber,
    )
    .option(
      '--media <mode>',
      "CMS files: 'link' to the CMS, 'copy' into the output, 'optimize' (copy plus responsive variants) (default: media.mode, optimize)",
    )
    .option('--json', 'print the build summary as JSON on stdout')
    .option('--no-progress', 'no progress bar, even on a terminal')
    .option('--force', 'replace the output folder even when it holds something else than a previous site output')
    .option(
      '--only <uids-or-paths>',
      'rebuild only these pages (page uids or paths, comma-separated, as a CMS event names them) and the pages linking to them; the rest comes from the previous output',
      collectList,
    )
    .action(async (opts) => {
      const { runBuildCommand } = await import('./commands/build.js')
      process.exitCode = await runBuildCommand(opts, program.opts())
    })

  program
    .command('preview')
    .description('Serve live API data with the editor preview widgets; reloads on template and config changes.')
    .option('--config <file>', 'config file (.ts, .mjs, .js or .json)')
    .option('--site <host>', 'serve only this site (default: choose by the Host header)')
    .option('--api <url>', 'content API origin, overrides api.baseUrl')
    .option('--port <n>', 'port to listen on', toInt('--port', 0, 65535), 3000)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--no-watch', 'do not watch templates/, config/ and public/')
    .option('--debug', 'honour ?debug: raw API errors and stack traces on error pages (features.debug)')
    .action(async (opts) => {
      const { runPreviewCommand } = await import('./commands/preview.js')
      process.exitCode = await runPreviewCommand(opts, program.opts())
    })

  program
    .command('serve')
    .description('Serve a built output folder locally, as a static host would.')
    .argument('[dir]', 'folder to serve (default: build.outDir, .output/public)')
    .option('--config <file>', 'config file to read build.outDir from, when no folder is given')
    .option('--port <n>', 'port to listen on', toInt('--port', 0, 65535), 8080)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .action(async (dir, opts) => {
      const { runServeCommand } = await import('./commands/serve.js')
      process.exitCode = await runServeCommand(dir, opts, program.opts())
    })

  program
    .command('demo-api')
    .description('Run the bundled demo content API (English, Polish, German) on loopback.')
    .option('--port <n>', 'port to listen on', toInt('--port', 0, 65535), 4010)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option(
      '--latency <ms>',
      'answer every request this many milliseconds after it arrived (the API response time)',
      toInt('--latency', 0, 60_000),
      0,
    )
    .option(
      '--generate <n>',
      'serve a generated site of N pages per locale instead of the demo content',
      toInt('--generate', 1, 100_000),
    )
    .option(
      '--every-kind',
      'with --generate: pages and menus that use every content type, header layout and menu entry kind',
    )
    .option(
      '--photos <n>',
      'also serve N large JPEG photographs (4000x2667, with ETag and Last-Modified) and pages showing three each at /photos/1, /photos/2…',
      toInt('--photos', 1, 10_000),
    )
    .option(
      '--fail <path=status>',
      'answer requests for PATH (an optional ?query must be in theirs; * for any path) with STATUS: 404, 500, 503, or reset, hang, malformed-json, html; repeatable',
      (value: string, list: string[] = []) => [...list, value],
    )
    .option(
      '--fail-initial [status]',
      'fail every initial data request (?type=834) of every locale, with 500 or STATUS',
    )
    .action(async (opts) => {
      const { runDemoApiCommand } = await import('./commands/demo-api.js')
      process.exitCode = await runDemoApiCommand(opts, program.opts())
    })

  return program
}

/** Runs the CLI; sets `process.exitCode`, never calls `process.exit` for a finished job. */
export async function run(argv: string[]): Promise<void> {
  const program = createProgram()
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2
      return
    }
    process.exitCode = handleError(error, { verbose: program.opts().verbose })
  }
}
