// The processes the benchmarks time, each from spawn to exit (start-up included), with its peak RSS
// sampled from /proc: the CLI (`site build`), the bare reference loop, the bare React process.
import { spawn } from 'node:child_process'
import { readFile, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sampleVmHwm } from '../peak-rss.mjs'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const MB = 1024 * 1024
const here = (name) => fileURLToPath(new URL(name, import.meta.url))

/** Runs `node script ...args` in ROOT; resolves to its exit code, output, wall time and peak RSS. */
export function runTimed(script, args = [], { stdin, env = {} } = {}) {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', CI: 'true', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const stopSampling = sampleVmHwm(child.pid)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) =>
      done({ code, stdout, stderr, wallMs: performance.now() - started, peakRssBytes: stopSampling() }),
    )
    child.stdin.end(stdin ?? '')
  })
}

/** `site build …args --json --no-progress` through the CLI; resolves to its JSON summary, wall, CPU and peak RSS. */
export async function runSiteBuild(args) {
  const res = await runTimed(here('./site-child.mjs'), ['build', ...args, '--json', '--no-progress'])
  const usage = /BENCH (\{.*\})/.exec(res.stderr)
  if (res.code !== 0 || !usage) throw new Error(`site build exited with ${res.code}: ${res.stderr.slice(-2000)}`)
  const { cpuMs, maxRssBytes } = JSON.parse(usage[1])
  return {
    summary: JSON.parse(res.stdout),
    wallMs: res.wallMs,
    cpuMs,
    peakRssBytes: Math.max(res.peakRssBytes, maxRssBytes),
    lines: res.stderr.split('\n').filter((line) => line.startsWith('--only')),
  }
}

/** bench/reference-loop.mjs over `paths`: fetch, render with the same templates, write; nothing else. */
export async function runReferenceLoop({ apiUrl, outDir, paths }) {
  const res = await runTimed(here('../reference-loop.mjs'), [], { stdin: JSON.stringify({ apiUrl, outDir, paths }) })
  if (res.code !== 0) throw new Error(`reference loop exited with ${res.code}: ${res.stderr.slice(-2000)}`)
  const result = JSON.parse(res.stdout.trim().split('\n').pop())
  return { ...result, wallMs: res.wallMs, peakRssBytes: Math.max(res.peakRssBytes, result.maxRssBytes) }
}

/** A bare Node process that imports react-dom/server, renders one element and writes `file`. */
export async function runBareReact(file) {
  const res = await runTimed(here('./bare-react.mjs'), [file])
  if (res.code !== 0) throw new Error(`bare React process exited with ${res.code}: ${res.stderr.slice(-2000)}`)
  return { wallMs: res.wallMs, peakRssBytes: res.peakRssBytes }
}

/**
 * Where builds write: /dev/shm (memory, on Linux) when it has `freeBytes` to spare, else the system's temp
 * folder. What a disk charges for creating and deleting many files drifts several-fold between runs on a
 * shared machine; memory keeps the figures about the build.
 */
export async function scratchParent(freeBytes) {
  try {
    const fs = await statfs('/dev/shm')
    if (fs.bavail * fs.bsize >= freeBytes) return '/dev/shm'
  } catch {}
  return tmpdir()
}

/** The paths a build wrote pages for, from its state (JSON Lines: a head with the counts, then the paths, pages first). */
export async function builtPagePaths(outDir) {
  const [head, ...lines] = (await readFile(join(outDir, '_site/builds/state.jsonl'), 'utf8')).split('\n')
  return lines.slice(0, JSON.parse(head).pages).map((line) => JSON.parse(line))
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
export const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`
export const mb = (bytes) => `${Math.round(bytes / MB)} MB`
export const verdict = (ok) => (ok ? 'ok' : 'MISSED')

/** The parts of a script to run: BENCH_PARTS (set by bench/run.mjs from BENCH_ONLY), else `defaults`. */
export function selectedParts(defaults) {
  const named = process.env.BENCH_PARTS?.split(',').map((s) => s.trim())
  return new Set(named?.length ? named : defaults)
}
