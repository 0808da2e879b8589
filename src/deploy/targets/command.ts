/**
 * `command:CMD`: for hosts with a CLI of their own (`netlify deploy`, `wrangler pages deploy`). CMD runs
 * once per deploy, through `/bin/sh -c`, with the output folder as `$1` and a list file as `$2` (also
 * `$SITE_DEPLOY_DIR` and `$SITE_DEPLOY_LIST`): one line per file, `upload PATH` or `delete PATH`, in
 * deploy order. Its manifest lives in the project's `.site/deploy/`, as the command's host keeps none of ours.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileStamp } from '../../build/incremental/disk.js'
import { errors } from '../../errors.js'
import { CACHE_DIR } from '../../shared/layout.js'
import { readRecordFile } from './record-file.js'
import type { DeployTarget, TargetRecord } from './types.js'

/** The last bytes of the command's stderr quoted in the error when it fails. */
const STDERR_TAIL_BYTES = 2_000

/**
 * Runs the command; with `signal`, in a process group of its own, which the signal's abort ends (SIGTERM to
 * the group: the shell and the host's CLI it started), rejecting with the signal's reason. With `terminal`, it
 * stays in the terminal's group instead, so that it may ask there (an ssh password, a host key): Ctrl-C reaches
 * it from the terminal, and the abort ends the shell.
 */
function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { signal?: AbortSignal; terminal?: boolean },
): Promise<void> {
  const { signal } = options
  return new Promise((done, fail) => {
    signal?.throwIfAborted()
    const group = signal !== undefined && !options.terminal
    const child = spawn('/bin/sh', ['-c', command, 'site-deploy', ...args], {
      stdio: ['ignore', 'inherit', 'pipe'],
      env: { ...process.env, ...env },
      detached: group,
    })
    const stop = () => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
        else child.kill('SIGTERM')
      } catch {
        // the group has ended already
      }
      fail(signal?.reason)
    }
    signal?.addEventListener('abort', stop, { once: true })
    child.on('close', () => signal?.removeEventListener('abort', stop))
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
    })
    child.on('error', fail)
    child.on('close', (code, killedBy) =>
      code === 0 ? done() : fail(new Error(`exited with ${code ?? killedBy}${stderr ? `: ${stderr.trim()}` : ''}`)),
    )
  })
}

/** `terminal`: the deploy runs at a terminal, which the command may use (see runCommand). */
export function createCommandTarget(
  command: string,
  outDir: string,
  root: string,
  options: { terminal?: boolean } = {},
): DeployTarget {
  const name = `command:${command}`
  const digest = createHash('sha256')
    .update(`${command}\0${resolve(outDir)}`)
    .digest('hex')
    .slice(0, 16)
  const recordFile = (record: TargetRecord) =>
    join(root, CACHE_DIR, 'deploy', `command-${digest}${record === 'manifest' ? '' : `.${record}`}.json`)
  const lines: string[] = []
  return {
    name,
    readRecord: (record) =>
      readRecordFile(recordFile(record)).catch((error: Error) => {
        throw errors.deployFailed(name, `reading ${recordFile(record)}: ${error.message}`, error)
      }),
    manifestStamp: async () => fileStamp(recordFile('manifest')),
    upload: async (file) => void lines.push(`upload ${file.path}`),
    remove: async (path) => void lines.push(`delete ${path}`),
    async commit(signal) {
      if (!lines.length) return
      let dir: string | undefined
      try {
        dir = await mkdtemp(join(tmpdir(), 'site-deploy-'))
        const list = join(dir, 'changes.txt')
        await writeFile(list, `${lines.join('\n')}\n`)
        const out = resolve(outDir)
        const env = { SITE_DEPLOY_DIR: out, SITE_DEPLOY_LIST: list }
        await runCommand(command, [out, list], env, { signal, terminal: options.terminal })
      } catch (error) {
        throw errors.deployFailed(name, (error as Error).message, error)
      } finally {
        lines.length = 0
        if (dir) await rm(dir, { recursive: true, force: true })
      }
    },
    async writeRecord(record, json) {
      const file = recordFile(record)
      await mkdir(join(root, CACHE_DIR, 'deploy'), { recursive: true })
      await writeFile(`${file}.tmp`, json)
      await rename(`${file}.tmp`, file)
      return fileStamp(file)
    },
    removeRecord: (record) => rm(recordFile(record), { force: true }),
    close: async () => {},
  }
}
