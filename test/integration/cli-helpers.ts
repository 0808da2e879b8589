/** Runs the real CLI (bin/site.js on the compiled dist/) in a child process and collects what it printed. */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from './build-helpers.js'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * `site ...args` with `CI=true` (no progress bar) and without the GitHub Actions variables of the
 * machine running the tests, unless `env` sets them.
 */
export function runSite(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const { GITHUB_ACTIONS: _actions, GITHUB_STEP_SUMMARY: _summary, ...inherited } = process.env
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), ...args], {
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
