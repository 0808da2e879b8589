/**
 * Page checkers written by others, run on real output: axe-core inside Chromium and the
 * W3C Nu HTML checker (`vnu-jar`, needs `java`; scripts/setup.sh installs Debian's JRE).
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'

const require = createRequire(import.meta.url)
const run = promisify(execFile)

/** Whether a `java` is on the PATH (the Nu checker's only need). */
export const hasJava: boolean = await run('java', ['-version']).then(
  () => true,
  () => false,
)

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{
    target: string[]
    any: Array<{ data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }>
  }>
}

/** `a.nav__link (#64748b on #0f172a, 3.75)` for a contrast failure, the selector alone otherwise. */
const describeNode = (node: AxeViolation['nodes'][number]): string => {
  const data = node.any.find((check) => check.data?.contrastRatio !== undefined)?.data
  const where = node.target.join(' ')
  return data ? `${where} (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio})` : where
}

let axeScript: string | undefined

/**
 * Runs axe-core in the page (over `include`, a CSS selector, or the whole document) and
 * returns its serious and critical violations, one line each: `[serious] color-contrast (...) at ...`.
 */
export async function seriousAxeViolations(page: Page, include?: string): Promise<string[]> {
  axeScript ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8')
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeScript })
  const violations = (await page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: object) => Promise<{ violations: AxeViolation[] }> }
      }
    ).axe
    const result = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] })
    return result.violations
  }, include)) as AxeViolation[]
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `[${v.impact}] ${v.id} (${v.help}) at ${v.nodes.map(describeNode).join(', ')}`)
}

export interface NuResult {
  /** HTML files checked. */
  files: number
  /** Errors, one line each: `file:line: message`. */
  errors: string[]
}

/** The Nu HTML checker over HTML files (errors only, as `java -jar vnu.jar --errors-only` reports them). */
export async function checkHtmlWithNu(files: string[]): Promise<NuResult> {
  const jar: string = require('vnu-jar')
  const args = ['-jar', jar, '--errors-only', '--format', 'json', ...files]
  // vnu prints its JSON report on stderr and exits 1 when it found errors.
  const stderr = await run('java', args, { maxBuffer: 64 * 1024 * 1024 }).then(
    (out) => out.stderr,
    (error: { stderr?: string; code?: number }) => {
      if (error.code !== 1 || !error.stderr) throw error
      return error.stderr
    },
  )
  const report = JSON.parse(stderr) as {
    messages: Array<{ type: string; url?: string; lastLine?: number; message: string }>
  }
  const errors = report.messages
    .filter((m) => m.type === 'error' || m.type === 'non-document-error')
    .map((m) => `${(m.url ?? '').replace(/^file:/, '')}:${m.lastLine ?? 0}: ${m.message}`)
  return { files: files.length, errors }
}
