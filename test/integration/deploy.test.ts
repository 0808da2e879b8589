/**
 * `site deploy`: a real build of the demo site sent to a folder, to a command and to an S3-compatible
 * server (s3rver) on 127.0.0.1; only what changed by build-state hash goes out, in the deploy order.
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, truncateSync } from 'node:fs'
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { type AddressInfo, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, type TargetMemory } from '../../src/deploy/deploy.js'
import { stepOf } from '../../src/deploy/plan.js'
import { createDeployTarget } from '../../src/deploy/targets/index.js'
import { createS3Target } from '../../src/deploy/targets/s3.js'
import { type DeployFile, TARGET_RECORD_FILES, type TargetRecord } from '../../src/deploy/targets/types.js'
import { DEPLOY_CONCURRENCY } from '../../src/shared/constants.js'
import { LATEST_MANIFEST_FILE } from '../../src/shared/layout.js'
import { type S3Server, startS3Server } from '../shared/s3-server.mjs'
import {
  buildSite,
  diffTrees,
  type EditableDemo,
  editFile,
  makeConfig,
  REPO_ROOT,
  readTree,
  startEditableDemo,
} from './build-helpers.js'
import { runCommand, runSite } from './cli-helpers.js'

const MiB = 1024 * 1024
const MANIFEST = TARGET_RECORD_FILES.manifest
const PENDING = TARGET_RECORD_FILES.pending
let demo: EditableDemo
let out: string
let dir: string

beforeAll(async () => {
  demo = await startEditableDemo('site-deploy-')
  dir = await mkdtemp(join(tmpdir(), 'site-deploy-targets-'))
  out = join(dir, 'out')
  const result = await buildSite({ apiUrl: demo.api.url, outDir: out, tools: demo.tools })
  expect(result.failures).toEqual([])
}, 120_000)

afterAll(async () => {
  await demo?.close()
  await rm(dir, { recursive: true, force: true })
})

/** Where a deployed folder and the output differ (diffTrees), the folder's manifest left out. */
const differenceFromOutput = async (www: string): Promise<string[]> => {
  const tree = await readTree(www)
  tree.delete(MANIFEST)
  return diffTrees(await readTree(out), tree)
}

const deployTo = async (spec: string, dryRun = false) => {
  const target = await createDeployTarget(spec, { outDir: out, root: dir })
  try {
    return await deploy({ outDir: out, target, site: makeConfig(demo.api.url).sites[0]!, dryRun })
  } finally {
    await target.close()
  }
}

/** Deploys as a long-lived deployer does (`site publish`): with a memory of the target's manifest; counts its reads. */
const deployRemembering = async (spec: string, targetMemory: TargetMemory) => {
  const target = await createDeployTarget(spec, { outDir: out, root: dir })
  let reads = 0
  const counted = {
    ...target,
    readRecord: (record: TargetRecord) => {
      if (record === 'manifest') reads++
      return target.readRecord(record)
    },
  }
  try {
    const report = await deploy({
      outDir: out,
      target: counted,
      site: makeConfig(demo.api.url).sites[0]!,
      targetMemory,
    })
    return { report, reads }
  } finally {
    await target.close()
  }
}

/** A long-lived deployer reads the manifest only when another deployer has changed it since it wrote it. */
async function checkTargetMemory(spec: string, edit: (text: string) => Promise<void>) {
  const memory: TargetMemory = { last: undefined }
  const first = await deployRemembering(spec, memory)
  expect(first.reads).toBe(1)
  expect(memory.last?.manifest.buildId).toBe(first.report.buildId)

  await edit('first edit, deployed by the long-lived deployer')
  const second = await deployRemembering(spec, memory)
  expect(second.reads).toBe(0)
  expect(second.report.uploads.pages).toContain('about-us/team/index.html')

  // another deployer sends the next edit: the stamp changes, the manifest is read again, nothing is sent twice
  await edit('second edit, deployed by another')
  expect((await deployTo(spec)).uploads.pages).toContain('about-us/team/index.html')
  await edit('third edit, deployed by the long-lived deployer')
  const third = await deployRemembering(spec, memory)
  expect(third.reads).toBe(1)
  expect(third.report.uploads.pages).toContain('about-us/team/index.html')
  expect(third.report.filesUploaded).toBeLessThan(20)
  const fourth = await deployRemembering(spec, memory)
  expect(fourth).toMatchObject({ reads: 0, report: { filesUploaded: 0 } })
}

let teamText = 'The leadership team of Amberline Software.'

/** Edits the team page's abstract in the CMS and rebuilds it alone (`--only 3`). */
async function editTeamPage(text: string) {
  await editFile(join(demo.content, 'pages/en/about-us--team.json'), teamText, text)
  teamText = text
  await demo.api.reload()
  const result = await buildSite({ apiUrl: demo.api.url, outDir: out, tools: demo.tools, only: ['3'] })
  expect(result.failures).toEqual([])
}

describe('deploy to a folder', () => {
  it('lists without sending on --dry-run, then sends the whole output once, then nothing', async () => {
    const www = join(dir, 'www')
    const dry = await runSite(['deploy', `dir:${www}`, '--out', out, '--dry-run'], { cwd: dir })
    expect(dry.code).toBe(0)
    // the list is the dry run's answer (stdout, beside its summary line), one line per file
    expect(dry.stdout.split('\n')).toContain('upload index.html')
    expect(dry.stdout).toMatch(/would upload \d+ files/)
    expect(dry.stderr).not.toContain('upload index.html')
    await expect(readFile(join(www, 'index.html'))).rejects.toThrow()
    // without a config there is no site of that name: --site is refused, not ignored
    const named = await runSite(['deploy', `dir:${www}`, '--out', out, '--site', 'www.example.com', '--dry-run'], {
      cwd: dir,
    })
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('Hostname: www.example.com not found in sites configuration')
    expect(named.stdout).toBe('')

    const first = await deployTo(`dir:${www}`)
    expect(first.firstDeploy).toBe(true)
    expect(await differenceFromOutput(www)).toEqual([])
    expect((await deployTo(`dir:${www}`)).filesUploaded).toBe(0)
  })

  it('sends only the files a content edit changed, latest.json last', async () => {
    const www = join(dir, 'www')
    await editTeamPage('Our leaders, edited for the deploy test.')
    const report = await deployTo(`dir:${www}`)
    const sent = [
      ...report.uploads.hashed,
      ...report.uploads.pages,
      ...report.uploads['site files'],
      ...report.uploads.latest,
    ]
    expect(sent).toContain('about-us/team/index.html')
    expect(report.uploads.latest).toEqual([LATEST_MANIFEST_FILE])
    expect(sent.length).toBeLessThan(20)
    expect(await readFile(join(www, 'about-us/team/index.html'), 'utf8')).toContain(
      'Our leaders, edited for the deploy test.',
    )
    // the target holds the output, and the files of the previous build the output no longer has
    const manifest = JSON.parse(await readFile(join(www, MANIFEST), 'utf8')) as { gone: Record<string, number> }
    expect(await differenceFromOutput(www)).toEqual(Object.keys(manifest.gone).sort())
  })

  it('is read again by a long-lived deployer only when another deployer changed it', async () => {
    await checkTargetMemory(`dir:${join(dir, 'www-remembered')}`, editTeamPage)
  })

  it('takes what a failed deploy changed as unknown: an edit taken back is sent again, nothing is left over', async () => {
    const www = join(dir, 'www-failed')
    const team = join(www, 'about-us/team/index.html')
    const before = teamText
    await deployTo(`dir:${www}`)
    await editTeamPage('Edited, then deployed half way.')
    // the folder cannot take latest.json (a folder is in its place): the deploy stops after the pages
    const latest = join(www, LATEST_MANIFEST_FILE)
    await rm(latest)
    await mkdir(latest)
    await expect(deployTo(`dir:${www}`)).rejects.toThrow(`copying ${LATEST_MANIFEST_FILE}`)
    expect(await readFile(team, 'utf8')).toContain('Edited, then deployed half way.')
    const pending = JSON.parse(await readFile(join(www, PENDING), 'utf8')) as { paths: string[] }
    expect(pending.paths).toContain('about-us/team/index.html')
    await rm(latest, { recursive: true })

    // the editor takes the edit back: the page is again what the target's manifest says it holds
    await editTeamPage(before)
    const report = await deployTo(`dir:${www}`)
    expect(report.uploads.pages).toContain('about-us/team/index.html')
    expect(await readFile(team, 'utf8')).toContain(before)
    await expect(lstat(join(www, PENDING))).rejects.toMatchObject({ code: 'ENOENT' })
    // the target holds the output and the files the manifest keeps for open tabs, none unrecorded
    const manifest = JSON.parse(await readFile(join(www, MANIFEST), 'utf8')) as { gone: Record<string, number> }
    expect(await differenceFromOutput(www)).toEqual(Object.keys(manifest.gone).sort())
  })

  it('refuses a target inside the output folder, or the output folder itself through a link', async () => {
    await expect(createDeployTarget(`dir:${join(out, 'copy')}`, { outDir: out, root: dir })).rejects.toThrow(
      /may not hold/,
    )
    const link = join(dir, 'link-to-out')
    await symlink(out, link)
    for (const spec of [`dir:${link}`, `dir:${join(link, 'copy')}`])
      await expect(createDeployTarget(spec, { outDir: out, root: dir }), spec).rejects.toThrow(/may not hold/)
    await expect(lstat(join(out, MANIFEST))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  // a target folder mistyped, or a deploy run before its build: the folder was made all the same, and stayed empty
  it('says why an output folder it is pointed at is none: a link to one, a file; and makes no target folder', async () => {
    const linked = join(dir, 'linked-out')
    await symlink(out, linked)
    const file = join(dir, 'out-file')
    await writeFile(file, 'not an output')
    const site = makeConfig(demo.api.url).sites[0]!
    for (const [outDir, why] of [
      [linked, 'it is a symbolic link, not a folder (pass the folder it leads to)'],
      [file, 'it is a file, not a folder'],
    ] as const) {
      const target = await createDeployTarget(`dir:${join(dir, 'www-none')}`, { outDir, root: dir })
      await expect(deploy({ outDir, target, site }).finally(() => target.close())).rejects.toThrow(
        `Nothing to deploy in ${outDir}: ${why}`,
      )
    }
    await expect(lstat(join(dir, 'www-none'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('names the target and what failed when the folder cannot take a file (DEPLOY_FAILED)', async () => {
    const file = join(dir, 'a-file')
    await writeFile(file, 'not a folder')
    const run = await runSite(['deploy', `dir:${file}`, '--out', out], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`Deploy to dir:${file} failed: reading \\${PENDING}: ENOTDIR`))
    expect(run.stderr).toContain('The next deploy sends again all this one may have changed.')
  })

  it('writes and deletes nothing through a link inside the target that leads out of it', async () => {
    const www = join(dir, 'www-linked')
    const outside = join(dir, 'outside')
    await mkdir(outside)
    await deployTo(`dir:${www}`)
    // someone made the team page's folder a link to a folder elsewhere
    await rm(join(www, 'about-us/team'), { recursive: true })
    await symlink(outside, join(www, 'about-us/team'))
    await editTeamPage('Edited while a link leads the page out of the target.')
    await expect(deployTo(`dir:${www}`)).rejects.toThrow(
      new RegExp(`^Deploy to dir:${www} failed: about-us/team/\\S+: a link inside the target leads its folder out of`),
    )
    expect(await readdir(outside)).toEqual([])
  })

  it('follows the folder when it is made a link after the target was made (a web root switched to a release)', async () => {
    const www = join(dir, 'www-switched')
    const release = join(dir, 'release-2')
    // one target for both deploys, as a publisher keeps it
    const target = await createDeployTarget(`dir:${www}`, { outDir: out, root: dir })
    const site = makeConfig(demo.api.url).sites[0]!
    try {
      await deploy({ outDir: out, target, site })
      await cp(www, release, { recursive: true })
      await rm(www, { recursive: true })
      await symlink(release, www)
      await editTeamPage('Edited once the web root was switched to a link.')
      await deploy({ outDir: out, target, site })
      expect(await readFile(join(release, 'about-us/team/index.html'), 'utf8')).toContain('switched to a link')
    } finally {
      await target.close()
    }
  })

  it('takes a record that is no regular file (a FIFO, a link out) as a corrupt one: sends all, waits for no writer', async () => {
    const www = join(dir, 'www-fifo')
    const secret = join(dir, 'secret.json')
    await writeFile(secret, '{"format":1,"paths":[]}')
    await deployTo(`dir:${www}`)
    await rm(join(www, MANIFEST))
    execFileSync('mkfifo', [join(www, MANIFEST)])
    await symlink(secret, join(www, PENDING))
    const report = await deployTo(`dir:${www}`)
    expect(report.firstDeploy).toBe(true)
    expect((await lstat(join(www, MANIFEST))).isFile()).toBe(true)
    await expect(lstat(join(www, PENDING))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await readFile(secret, 'utf8')).toBe('{"format":1,"paths":[]}')
    expect(await differenceFromOutput(www)).toEqual([])
  }, 30_000)

  // a file removed from the web root by hand stayed missing: every later deploy took the manifest's word for it
  it('sends again what was removed from the folder behind its back', async () => {
    const www = join(dir, 'www-removed')
    await deployTo(`dir:${www}`)
    const asset = [...(await readTree(out)).keys()].find((path) => stepOf(path) === 'hashed' && path.endsWith('.js'))!
    for (const path of [asset, 'about-us/index.html']) await rm(join(www, path))
    const report = await deployTo(`dir:${www}`)
    expect([report.uploads.hashed, report.uploads.pages]).toEqual([[asset], ['about-us/index.html']])
    expect(await differenceFromOutput(www)).toEqual([])
    expect((await deployTo(`dir:${www}`)).filesUploaded).toBe(0)
  })

  // the walk did not look through a folder made a link (to another folder of the web root): every deploy sent its
  // files again, as if the folder had lost them
  it('takes the files of a folder made a link inside the folder as held', async () => {
    const www = join(dir, 'www-link-inside')
    await deployTo(`dir:${www}`)
    await rename(join(www, '_site/assets'), join(www, 'shared-assets'))
    await symlink('../shared-assets', join(www, '_site/assets'))
    expect((await deployTo(`dir:${www}`)).filesUploaded).toBe(0)
  })

  it("removes what a deploy killed half way left, and keeps a running one's", async () => {
    const www = join(dir, 'www-killed')
    await deployTo(`dir:${www}`)
    // a copy made by a process that is gone (pid 2^22 + 1 is above Linux's default pid_max), and one of this process
    const dead = join(www, 'about-us/team/index.html.site-tmp-4194305-0a1b2c3d')
    const live = join(www, `index.html.site-tmp-${process.ppid}-0a1b2c3d`)
    await writeFile(dead, 'half')
    await writeFile(live, 'in flight')
    await deployTo(`dir:${www}`)
    await expect(lstat(dead)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await readFile(live, 'utf8')).toBe('in flight')
  })
  it("removes a copy a killed deploy left even when its process id is another running process's now", async () => {
    const www = join(dir, 'www-reused')
    await deployTo(`dir:${www}`)
    // after a reboot or a container's restart, the id the copy names is this test's parent's, which started later
    const parentStart = (await readFile(`/proc/${process.ppid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[19]!
    const reused = join(www, `index.html.site-tmp-${process.ppid}-${Number(parentStart) + 1}-0a1b2c3d`)
    const live = join(www, `about-us/index.html.site-tmp-${process.ppid}-${parentStart}-0a1b2c3d`)
    await writeFile(reused, 'half')
    await writeFile(live, 'in flight')
    await deployTo(`dir:${www}`)
    await expect(lstat(reused)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await readFile(live, 'utf8')).toBe('in flight')
  })
  // two deploys of two outputs at once (two CI jobs) left one's latest.json under the other's manifest, for good
  it('refuses the folder while another deploy sends to it (naming its process), and takes over a killed one’s lock', async () => {
    const www = join(dir, 'www-locked')
    await deployTo(`dir:${www}`)
    const lock = join(www, '.site-deploy.lock')
    const parentStart = (await readFile(`/proc/${process.ppid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[19]!
    await writeFile(lock, `${process.ppid}\n${parentStart}\n`)
    const before = await readTree(www)
    await expect(deployTo(`dir:${www}`)).rejects.toMatchObject({
      message: `Deploy to dir:${www} failed: another deploy is sending to it (process ${process.ppid}, ${lock}): wait for it to finish`,
      // not the hint of a deploy that failed part way ("files already sent stay"): this one sent nothing
      hint: 'Nothing was sent. Run this deploy again once that one has ended.',
    })
    expect(diffTrees(before, await readTree(www))).toEqual([])
    // a dry run only reads
    await expect(deployTo(`dir:${www}`, true)).resolves.toBeDefined()
    // a deploy killed with -9 (pid 2^22 + 1 is above Linux's default pid_max): taken over, and gone once done
    await writeFile(lock, '4194305\n')
    await deployTo(`dir:${www}`)
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' })
  })
  it('removes the folders a deleted page leaves empty, and keeps those that still hold a file', async () => {
    const www = join(dir, 'www-pruned')
    await deployTo(`dir:${www}`)
    // a page (and its payload) and a file in a folder of a page that stays, that an earlier build had and this one has not
    const gone = ['old-page/index.html', 'old-page/_payload.json', 'old-page/deeper/index.html', 'about-us/old.pdf']
    for (const path of gone) {
      await mkdir(dirname(join(www, path)), { recursive: true })
      await writeFile(join(www, path), 'from an earlier build')
    }
    const manifest = JSON.parse(await readFile(join(www, MANIFEST), 'utf8')) as { files: Record<string, string> }
    for (const path of gone) manifest.files[path] = '0123456789abcdef'
    await writeFile(join(www, MANIFEST), JSON.stringify(manifest))
    const site = makeConfig(demo.api.url).sites[0]!
    const target = await createDeployTarget(`dir:${www}`, { outDir: out, root: dir })
    const report = await deploy({
      outDir: out,
      target,
      site: { ...site, build: { ...site.build, keepBuilds: 1 } },
    }).finally(() => target.close())
    expect(report.deletes).toEqual([...gone].sort())
    // a web server answers an empty folder 403 or with a listing, where the site's 404 page belongs
    await expect(lstat(join(www, 'old-page'))).rejects.toMatchObject({ code: 'ENOENT' })
    expect((await lstat(join(www, 'about-us/index.html'))).isFile()).toBe(true)
    expect(await differenceFromOutput(www)).toEqual([])
  })
})

describe('deploy through a command', () => {
  it('runs the command with the output folder and a list of changes in deploy order', async () => {
    const seen = join(dir, 'seen.txt')
    const script = join(dir, 'host-cli.sh')
    await writeFile(script, `#!/bin/sh\n{ echo "dir $1"; cat "$2"; } > "${seen}"\n`)
    const report = await deployTo(`command:sh ${script} "$1" "$2"`)
    expect(report.filesUploaded).toBeGreaterThan(100)
    const lines = (await readFile(seen, 'utf8')).trim().split('\n')
    expect(lines[0]).toBe(`dir ${out}`)
    const steps = lines.slice(1).map((line) => stepOf(line.replace(/^upload /, '')))
    const order = ['hashed', 'pages', 'site files', 'latest']
    expect(steps.map((s) => order.indexOf(s))).toEqual([...steps.map((s) => order.indexOf(s))].sort((a, b) => a - b))
    expect(lines.at(-1)).toBe(`upload ${LATEST_MANIFEST_FILE}`)
    // nothing changed since: the command is not run again
    await rm(seen)
    expect((await deployTo(`command:sh ${script} "$1" "$2"`)).filesUploaded).toBe(0)
    await expect(readFile(seen)).rejects.toThrow()
  })

  // a CI cancel (SIGTERM) ended the deploy but not its command, which went on uploading from a folder that a build
  // or deploy started next no longer found held
  it('ends the command on SIGTERM, releases the output folder and exits 143', async () => {
    const started = join(dir, 'command-started')
    const late = join(dir, 'command-went-on')
    const command = `command:touch ${started}; sleep 2; touch ${late}`
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), 'deploy', command, '--out', out], {
      cwd: dir,
      env: { ...process.env, CI: 'true' },
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    while (!existsSync(started)) await setTimeout(20)
    child.kill('SIGTERM')
    expect(await exited).toBe(143)
    expect(stderr).toContain(`Deploy to ${command} failed: interrupted by SIGTERM`)
    expect((await readdir(dirname(out))).filter((name) => name.endsWith('.lock'))).toEqual([])
    await setTimeout(2500)
    expect(existsSync(late)).toBe(false)
  }, 30_000)

  // run at a terminal, the command had no terminal to ask on (a session of its own): ssh's password prompt failed
  it('lets the command use the terminal site deploy runs at', async () => {
    const command = `command:(: </dev/tty) && echo TERMINAL-OK >&2 || echo NO-TERMINAL >&2`
    const deployCli = `${process.execPath} ${join(REPO_ROOT, 'bin/site.js')} deploy '${command}' --out ${out}`
    // `script` runs it at a terminal of its own (a pseudo-terminal), whose output is its stdout
    const res = await runCommand('script', ['-qec', deployCli, '/dev/null'], { cwd: dir })
    // a line of its own: the summary line names the command, marker included
    expect(res.stdout.split(/\r?\n/)).toContain('TERMINAL-OK')
    expect(res.code).toBe(0)
  })

  it('fails with the command’s own words, and sends everything again next time', async () => {
    const spec = 'command:echo "quota exceeded" >&2; exit 3'
    await expect(deployTo(spec)).rejects.toThrow(/exited with 3: quota exceeded/)
    await expect(deployTo(spec)).rejects.toThrow(/exited with 3/)
  })

  it('fails as a deploy (DEPLOY_FAILED), naming the folder, when the temporary folder cannot take the list', async () => {
    const tmp = process.env.TMPDIR
    process.env.TMPDIR = join(dir, 'no-such-tmp')
    try {
      await expect(deployTo('command:true')).rejects.toMatchObject({
        code: 'DEPLOY_FAILED',
        message: expect.stringMatching(/^Deploy to command:true failed: .*no-such-tmp/),
      })
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = tmp
    }
  })
})

describe('deploy to S3', () => {
  let s3: S3Server
  const env = { ...process.env }

  beforeAll(async () => {
    s3 = await startS3Server({ directory: join(dir, 's3'), buckets: ['site-www'] })
    Object.assign(process.env, s3.env)
  })
  afterAll(async () => {
    process.env = env
    await s3?.close()
  })

  const object = (key: string) => fetch(`${s3.endpoint}/site-www/${key}`)

  /**
   * Points the SDK at a store that takes connections and never answers (stopped, or a network that drops packets);
   * `close` points it back at s3rver.
   */
  async function pointAtHungStore(): Promise<{ close(): void }> {
    const sockets = new Set<Socket>()
    const hung = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((done) => hung.listen(0, '127.0.0.1', done))
    process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`
    return {
      close() {
        process.env.AWS_ENDPOINT_URL_S3 = s3.env.AWS_ENDPOINT_URL_S3
        for (const socket of sockets) socket.destroy()
        hung.close()
      },
    }
  }

  it('uploads with content types and cache policies, byte for byte, then only changes', async () => {
    const first = await deployTo('s3://site-www/live')
    expect(first.filesUploaded).toBeGreaterThan(100)
    const page = await object('live/about-us/team/index.html')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('cache-control')).toBe('no-cache')
    expect(Buffer.from(await page.arrayBuffer()).equals(await readFile(join(out, 'about-us/team/index.html')))).toBe(
      true,
    )
    const asset = first.uploads.hashed.find((path) => path.endsWith('.js'))!
    const script = await object(`live/${asset}`)
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await script.text()).toBe(await readFile(join(out, asset), 'utf8'))
    const manifest = (await (await object(`live/${MANIFEST}`)).json()) as { buildId: string }
    expect(manifest.buildId).toBe(first.buildId)
    // what the deploy may change is recorded while it runs, and removed once the manifest says it
    expect((await object(`live/${PENDING}`)).status).toBe(404)

    await editTeamPage('Our leaders, edited for the S3 test.')
    const second = await deployTo('s3://site-www/live')
    expect(second.uploads.pages).toContain('about-us/team/index.html')
    expect(second.filesUploaded).toBeLessThan(20)
    expect(await (await object('live/about-us/team/index.html')).text()).toContain('edited for the S3 test')
  })

  it('sends a new page before the changed pages that link to it', async () => {
    await deployTo('s3://site-www/linked')
    // the editor adds a page to the footer menu: every English page changes to link to it
    const page = JSON.parse(await readFile(join(demo.content, 'pages/en/imprint.json'), 'utf8')) as {
      id: number
      slug: string
      i18n: { link: string }[]
    }
    Object.assign(page, { id: 990, slug: '/accessibility' })
    page.i18n[0]!.link = '/accessibility'
    await writeFile(join(demo.content, 'pages/en/accessibility.json'), JSON.stringify(page))
    const nav = join(demo.content, 'initial-data/en.json')
    const data = JSON.parse(await readFile(nav, 'utf8')) as { footerNavigation: { children: object[] }[] }
    const menu = data.footerNavigation[0]!.children
    menu.push({ ...menu.at(-1), title: 'Accessibility', link: '/accessibility' })
    await writeFile(nav, JSON.stringify(data))
    await demo.api.reload()
    const result = await buildSite({ apiUrl: demo.api.url, outDir: out, tools: demo.tools })
    expect(result.failures).toEqual([])

    expect(await readFile(join(out, 'about-us/index.html'), 'utf8')).toContain('href="/accessibility"')
    const target = createS3Target('site-www', 'linked', process.env)
    const events: string[] = []
    const recording = {
      ...target,
      async upload(file: DeployFile, signal?: AbortSignal) {
        events.push(`start ${file.path}`)
        await target.upload(file, signal)
        events.push(`end ${file.path}`)
      },
    }
    try {
      await deploy({ outDir: out, target: recording, site: makeConfig(demo.api.url).sites[0]! })
    } finally {
      await target.close()
    }
    const newFiles = ['accessibility/index.html', 'accessibility/_payload.json']
    const linking = ['index.html', 'about-us/index.html', 'about-us/team/index.html', 'services/_payload.json']
    const sent = Math.max(...newFiles.map((path) => events.indexOf(`end ${path}`)))
    for (const path of linking) expect([path, events.indexOf(`start ${path}`) > sent]).toEqual([path, true])
    expect(await (await object('linked/accessibility/index.html')).text()).toContain('<html')
  })

  it('sends again what was removed from the bucket behind its back', async () => {
    await deployTo('s3://site-www/removed')
    expect(Object.values((await deployTo('s3://site-www/removed', true)).uploads).flat()).toEqual([])
    // someone removes a script every page loads, and a page, by hand (or a lifecycle rule does)
    const asset = [...(await readTree(out)).keys()].find((path) => stepOf(path) === 'hashed' && path.endsWith('.js'))!
    for (const path of [asset, 'about-us/index.html'])
      expect((await fetch(`${s3.endpoint}/site-www/removed/${path}`, { method: 'DELETE' })).status).toBe(204)
    const report = await deployTo('s3://site-www/removed')
    expect([report.uploads.hashed, report.uploads.pages]).toEqual([[asset], ['about-us/index.html']])
    expect(await (await object(`removed/${asset}`)).text()).toBe(await readFile(join(out, asset), 'utf8'))
    expect((await object('removed/about-us/index.html')).status).toBe(200)
    expect((await deployTo('s3://site-www/removed')).filesUploaded).toBe(0)
  })

  it('takes a record larger than any a deploy writes as a corrupt one, without reading it whole', async () => {
    await deployTo('s3://site-www/large-record')
    const manifest = await (await object(`large-record/${MANIFEST}`)).text()
    const bytes = Buffer.byteLength(manifest)
    const capped = createS3Target('site-www', 'large-record', process.env, { recordMaxBytes: bytes - 1 })
    const roomy = createS3Target('site-www', 'large-record', process.env, { recordMaxBytes: bytes })
    try {
      expect(await capped.readRecord('manifest')).toBe('')
      expect(await roomy.readRecord('manifest')).toBe(manifest)
    } finally {
      await capped.close()
      await roomy.close()
    }
  })

  it('reads the manifest again only when its ETag changed', async () => {
    await checkTargetMemory('s3://site-www/remembered', (text) => editTeamPage(`${text} (S3)`))
  })

  it('fails, naming the target, when the store stops answering (a hung connection), and keeps what it had', async () => {
    // a store that takes connections and never answers (stopped, or a network that drops packets): without a
    // timeout the deploy waited for ever, and a publisher with it, publishing nothing more and reporting nothing
    const hung = await pointAtHungStore()
    const target = createS3Target('site-www', 'live', process.env, { idleTimeoutMs: 300 })
    try {
      await editTeamPage('Edited while the store hangs.')
      const started = Date.now()
      await expect(deploy({ outDir: out, target, site: makeConfig(demo.api.url).sites[0]! })).rejects.toThrow(
        /^Deploy to s3:\/\/site-www\/live failed: reading \.site-deploy-pending\.json: .*timed out/,
      )
      expect(Date.now() - started).toBeLessThan(8_000)
    } finally {
      await target.close()
      hung.close()
    }
    expect(await (await object('live/about-us/team/index.html')).text()).toContain('edited for the S3 test')
  }, 20_000)

  it('stops at once when stopped while the store hangs on its records, not after the SDK gave up', async () => {
    // `site publish` stopping (SIGTERM) or past publish.deployTimeoutMs: the records were read and written without
    // the signal, so a hung store held the stop for the SDK's timeouts and retries (over a minute, past systemd's)
    const hung = await pointAtHungStore()
    const target = createS3Target('site-www', 'live', process.env, { idleTimeoutMs: 5_000 })
    try {
      const signal = AbortSignal.timeout(300)
      const started = Date.now()
      await expect(deploy({ outDir: out, target, site: makeConfig(demo.api.url).sites[0]!, signal })).rejects.toThrow(
        /^Deploy to s3:\/\/site-www\/live failed: .*aborted due to timeout/,
      )
      expect(Date.now() - started).toBeLessThan(2_000)
    } finally {
      await target.close()
      hung.close()
    }
  }, 30_000)

  it('sends nothing more once a file failed: what was started has ended when the deploy fails', async () => {
    // a long-lived deployer (`site publish`) builds again after a failed deploy: an upload of the failed one still
    // going then could send a page of the new build before its assets
    const target = createS3Target('site-www', 'failing', process.env)
    const events: string[] = []
    const failing = {
      ...target,
      async upload(file: DeployFile, signal?: AbortSignal) {
        events.push(`start ${file.path}`)
        if (events.length === 1) throw new Error('the store refused the first file')
        await setTimeout(20)
        await target.upload(file, signal)
        events.push(`end ${file.path}`)
      },
    }
    try {
      await expect(deploy({ outDir: out, target: failing, site: makeConfig(demo.api.url).sites[0]! })).rejects.toThrow(
        'the store refused the first file',
      )
      events.push('failed')
      await setTimeout(300)
    } finally {
      await target.close()
    }
    const failed = events.indexOf('failed')
    expect(events.slice(failed + 1)).toEqual([])
    const started = events.filter((event) => event.startsWith('start ')).map((event) => event.slice(6))
    expect(started.length).toBeLessThanOrEqual(DEPLOY_CONCURRENCY)
    expect(started.every((path) => stepOf(path) === 'hashed')).toBe(true)
    expect(events.filter((event) => event.startsWith('end '))).toHaveLength(started.length - 1)
    expect((await object(`failing/${PENDING}`)).status).toBe(200)
  })

  it('sends a large file in parts, read one at a time: the object is whole, with its type and cache policy', async () => {
    const parts: string[] = []
    const off = s3.onRequest((request) => {
      if (request.method === 'PUT' && request.url?.includes('partNumber=')) parts.push(request.url)
    })
    const target = createS3Target('site-www', 'parts', process.env, { multipartBytes: 6 * MiB, partBytes: 5 * MiB })
    const source = join(dir, 'film.mp4')
    const bytes = randomBytes(13 * MiB)
    await writeFile(source, bytes)
    try {
      await target.upload({ path: 'media/film.mp4', source, contentType: 'video/mp4', cacheControl: 'no-cache' })
    } finally {
      off()
      await target.close()
    }
    expect(parts).toHaveLength(3)
    const stored = await object('parts/media/film.mp4')
    expect([stored.headers.get('content-type'), stored.headers.get('cache-control')]).toEqual(['video/mp4', 'no-cache'])
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('fails, naming the file and storing nothing, when a file sent in parts shrinks meanwhile', async () => {
    const source = join(dir, 'shrinking.mp4')
    await writeFile(source, randomBytes(13 * MiB))
    // as the first part arrives, the file is cut short in place
    const off = s3.onRequest((request) => {
      if (request.url?.includes('partNumber=1&')) truncateSync(source, 1)
    })
    const target = createS3Target('site-www', 'parts', process.env, { multipartBytes: 6 * MiB, partBytes: 5 * MiB })
    try {
      const file = { path: 'media/shrinking.mp4', source, contentType: 'video/mp4', cacheControl: 'no-cache' }
      await expect(target.upload(file)).rejects.toMatchObject({
        code: 'DEPLOY_FAILED',
        message:
          'Deploy to s3://site-www/parts failed: uploading media/shrinking.mp4: the file shrank while it was sent',
      })
    } finally {
      off()
      await target.close()
    }
    expect((await object('parts/media/shrinking.mp4')).status).toBe(404)
  })

  it('fails as a deploy (DEPLOY_FAILED), naming the file, when a planned file is gone from the output', async () => {
    const target = createS3Target('site-www', 'gone', process.env)
    try {
      const file = { path: 'a/index.html', source: join(dir, 'no-such-file.html'), contentType: 'text/html' }
      await expect(target.upload({ ...file, cacheControl: 'no-cache' })).rejects.toMatchObject({
        code: 'DEPLOY_FAILED',
        message: expect.stringContaining('reading a/index.html: ENOENT'),
      })
      expect((await object('gone/a/index.html')).status).toBe(404)
    } finally {
      await target.close()
    }
  })

  it('fails on a bucket that does not exist, a dry run too, instead of planning a first deploy to it', async () => {
    // a misspelled bucket answers 404 as a missing record does: the dry run listed every file, exit 0, and only the
    // real deploy then failed
    for (const dryRun of [true, false])
      await expect(deployTo('s3://site-missing/live', dryRun), `dry run: ${dryRun}`).rejects.toMatchObject({
        code: 'DEPLOY_FAILED',
        message: expect.stringMatching(
          /^Deploy to s3:\/\/site-missing\/live failed: reading \.site-deploy-pending\.json: .*bucket does not exist/,
        ),
      })
  })

  it('names the target and leaves it unchanged on wrong credentials', async () => {
    // s3rver checks the access key id (it does not verify version 4 signatures)
    process.env.AWS_ACCESS_KEY_ID = 'NOT-A-KEY'
    try {
      await editTeamPage('Edited while the credentials are wrong.')
      await expect(deployTo('s3://site-www/live')).rejects.toThrow(
        /Deploy to s3:\/\/site-www\/live failed: .*Access Key/,
      )
      expect(await (await object('live/about-us/team/index.html')).text()).toContain('edited for the S3 test')
    } finally {
      process.env.AWS_ACCESS_KEY_ID = s3.env.AWS_ACCESS_KEY_ID
    }
  })
})
