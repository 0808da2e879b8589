/** Runs the real CLI (bin/site.js on the compiled dist/) in a child process and collects what it printed. */
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { join } from 'node:path'
import { REPO_ROOT } from './build-helpers.js'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  cwd?: string
  env?: Record<string, string>
}

/** `site ...args`: see runScript. */
export const runSite = (args: string[], options: RunOptions = {}): Promise<CliRun> =>
  runScript('bin/site.js', args, options)

/**
 * `node SCRIPT ...args` (`bin/site.js`, `scripts/demo.mjs`) to its end, as CI runs it: `CI=true` (no
 * progress bar), without the GitHub Actions variables of the machine running the tests unless `env` sets them.
 */
export function runScript(script: string, args: string[], options: RunOptions = {}): Promise<CliRun> {
  return runCommand(process.execPath, [join(REPO_ROOT, script), ...args], options)
}

/** `command ...args` to its end, in the environment runScript describes. */
export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<CliRun> {
  const { GITHUB_ACTIONS: _actions, GITHUB_STEP_SUMMARY: _summary, ...inherited } = process.env
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...inherited, CI: 'true', ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

/** What a server at `url` answers a CONNECT (which node hands to no request listener), as raw text. */
export function connectAnswer(url: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise<string>((done, fail) => {
    let text = ''
    const socket = connect(Number(port), hostname, () =>
      socket.write(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`),
    )
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (text += chunk))
    socket.on('end', () => done(text))
    socket.on('error', fail)
  })
}
