import { createRequire } from 'node:module'
import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { messageOf } from '../errors.js'
import { PUBLISH_PORT } from '../shared/constants.js'
import { handleError, reportToGithub } from './exit.js'
import { toFailedRunSummary } from './failure.js'
import { toTerminalText } from './terminal.js'

/**
 * The `site` command: parses flags into an InlineConfig and calls the
 * programmatic API in src/index.ts. No business rules here. Heavy modules are
 * imported lazily so that `site --help` answers at once.
 */

/** `version` of package.json (dist/cli/ and src/cli/ both sit two folders below it). */
const packageVersion = (): string =>
  (createRequire(import.meta.url)('../../package.json') as { version: string }).version

/** A whole number as written in decimal digits, or NaN: Number('') is 0, Number('0x10') 16 and Number('1e1') 10. */
const decimal = (value: string): number => (/^\d{1,15}$/.test(value) ? Number(value) : Number.NaN)

const toInt = (name: string, min: number, max: number) => (value: string) => {
  const n = decimal(value)
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
const asNumber = decimal

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
      '--only <items>',
      'rebuild only these pages (page uids or paths, comma-separated, as a CMS event names them) and, when what menus show of one changed (its title), the pages linking to it; or the pages that show a CMS file (file:/fileadmin/a.jpg); the rest comes from the previous output',
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
    .command('deploy')
    .description('Send what changed in a built output to a static host, assets first and latest.json last.')
    .argument('<target>', "where to: 'dir:PATH', 's3://BUCKET/PREFIX' or 'command:CMD'")
    .option('--config <file>', 'config file to read build.outDir and build.keepBuilds from')
    .option('--site <host>', 'site whose output to deploy, by hostname, when several are configured')
    .option('--out <dir>', 'output folder (default: build.outDir, .output/public)')
    .option('--dry-run', 'list the files it would upload and delete, send nothing')
    .action(async (target, opts) => {
      const { runDeployCommand } = await import('./commands/deploy.js')
      process.exitCode = await runDeployCommand(target, opts, program.opts())
    })

  program
    .command('publish')
    .description('Run the publisher: CMS webhooks in, the changed pages built and deployed in seconds.')
    .option('--config <file>', 'config file (.ts, .mjs, .js or .json)')
    .option('--site <host>', 'site to publish, by hostname, when several are configured')
    .option('--api <url>', 'content API origin, overrides api.baseUrl')
    .option('--out <dir>', 'output folder (default: build.outDir, .output/public)')
    .option(
      '--deploy <target>',
      "deploy after each build: 'dir:PATH', 's3://BUCKET/PREFIX' or 'command:CMD' (default: publish.deploy)",
    )
    .option('--port <n>', 'port to listen on', toInt('--port', 0, 65535), PUBLISH_PORT)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option(
      '--state <dir>',
      'folder of the event journal (default: .site/publish/<digest of the output folder>/ in the project)',
    )
    .action(async (opts) => {
      const { runPublishCommand } = await import('./commands/publish.js')
      process.exitCode = await runPublishCommand(opts, program.opts())
    })

  program
    .command('init')
    .description('Create a site project: the demo templates, config and public files, a README and a CI workflow.')
    .argument('[dir]', 'folder for the new site, created when missing', '.')
    .option('--api <url>', "your TYPO3's content API origin, written to api.baseUrl (default: the demo API)")
    .option('--force', 'write into a folder that is not empty, replacing files of the same name')
    .addHelpText(
      'after',
      '\nOn a terminal, asks for the content API origin unless --api is given; elsewhere it asks nothing.\nA folder holding only .git counts as empty. Exit code 2 when the folder is a file, not empty, or not writable.\n',
    )
    .action(async (dir, opts) => {
      const { runInitCommand } = await import('./commands/init.js')
      process.exitCode = await runInitCommand(dir, opts, program.opts())
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
      'with --generate (required): pages and menus that use every content type, header layout and menu entry kind',
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
    .action(async (opts, command: Command) => {
      // --every-kind shapes the generated site; without --generate there is none, and it would be dropped unsaid
      if (opts.everyKind && opts.generate === undefined)
        command.error("error: option '--every-kind' needs '--generate <n>': it shapes the generated site", {
          code: 'commander.missingMandatoryOptionValue',
        })
      const { runDemoApiCommand } = await import('./commands/demo-api.js')
      process.exitCode = await runDemoApiCommand(opts, program.opts())
    })

  for (const command of program.commands) refuseFlagsAsValues(command)
  return program
}

/**
 * Options that take a value refuse one that is a flag: commander takes the word after `--out` whatever it is, so
 * `site build --out --json` would write into a folder named `--json` (and drop `--json`). No value of this CLI
 * starts with `--`, so such a word is a value left out. So is an empty one (`--site "$SITE"`, the variable unset)
 * of an option without a parser of its own: the commands would take it for the option not given.
 */
function refuseFlagsAsValues(command: Command): void {
  for (const option of command.options) {
    if (!option.required) continue
    const parse = option.parseArg
    option.argParser((value: string, previous: unknown) => {
      if (value.startsWith('--') || (value === '' && !parse))
        command.error(`error: option '${option.flags}' needs a value, got '${value}'`, {
          code: 'commander.optionMissingArgument',
        })
      return parse ? parse(value, previous) : value
    })
  }
}

/**
 * A flag commander refused (it printed the message and the usage line): under GitHub Actions the annotation and
 * step summary every failure gets, and for `site build --json` the JSON summary a pipeline reads.
 */
function reportUsageError(args: readonly string[], message: string): void {
  const command = args.find((arg) => !arg.startsWith('-')) ?? 'site'
  const failure = { command, kind: 'USAGE', message: message.replace(/^error: /, ''), exitCode: 2 }
  reportToGithub(failure)
  if (command === 'build' && args.includes('--json'))
    process.stdout.write(`${JSON.stringify(toFailedRunSummary(failure), null, 2)}\n`)
}

/** Exit code of a command whose reader closed its output early: 128 + SIGPIPE, as a shell reports `yes | head -1`. */
const BROKEN_PIPE_EXIT_CODE = 141

/**
 * A reader that closes the pipe early (`site demo-api --help | head -1`) ends the command as it ends `git log`: at
 * once and without a word, where node would print the EPIPE of a write nobody reads, with its stack. A build it
 * stops leaves its output as an interrupted build does. An output that cannot be written otherwise (`> report.json`
 * on a full disk) ends it as well, with exit code 1: said on stderr when stdout failed (not on stdout, which a
 * pipeline may read as JSON).
 */
function endOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(BROKEN_PIPE_EXIT_CODE)
      if (stream === process.stdout) process.stderr.write(`Cannot write to stdout: ${messageOf(error)}\n`)
      process.exit(1)
    })
}

/** Runs the CLI; sets `process.exitCode`, never calls `process.exit` for a finished job. */
export async function run(argv: string[]): Promise<void> {
  endOnClosedOutput()
  const program = createProgram()
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2
      if (error.exitCode !== 0) reportUsageError(argv.slice(2), error.message)
      return
    }
    process.exitCode = handleError(error, { verbose: program.opts().verbose, command: argv[2] ?? 'site' })
  }
}
