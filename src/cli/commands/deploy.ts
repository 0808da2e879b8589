import { resolve } from 'node:path'
import {
  createDeployTarget,
  DEFAULTS,
  DEPLOY_STEPS,
  deploy,
  isSiteError,
  lockDeployOutput,
  otherSitesOf,
  outDirOf,
  projectFolderAbove,
  type ResolvedSite,
  resolveConfig,
  resolveSiteOptions,
  selectSite,
} from '../../index.js'
import { handleError } from '../exit.js'
import { toTerminalLine } from '../terminal.js'
import { onStopSignals, SIGNAL_EXIT_CODES, type StopSignal } from './shutdown.js'

export interface DeployCommandOptions {
  config?: string
  site?: string
  out?: string
  dryRun?: boolean
}

/**
 * `build.outDir` and `build.keepBuilds` of the config when there is one (deploy needs no API), else the defaults; in a
 * folder of a project (`templates/`), the config's error tells to run it in the project's (whose config keeps a
 * deploy out of `public/` and other sites' folders, `--out` or not).
 */
async function buildOptions(
  root: string,
  opts: DeployCommandOptions,
): Promise<{ outDir: string; site: ResolvedSite; otherSites?: ReturnType<typeof otherSitesOf> }> {
  try {
    const config = await resolveConfig({ root, configFile: opts.config, apiOptional: true, outDir: opts.out })
    const site = selectSite(config.sites, opts.site)
    return { outDir: outDirOf(root, site), site, otherSites: otherSitesOf(config, site) }
  } catch (error) {
    const inProject = projectFolderAbove(root) !== undefined
    if (!opts.config && isSiteError(error) && error.code === 'CONFIG_NOT_FOUND' && !inProject) {
      // the one site of no config has no host name: a --site is refused, as for a config without baseUrl
      const site = selectSite([resolveSiteOptions({}, [])], opts.site)
      return { outDir: resolve(root, opts.out ?? DEFAULTS.build.outDir), site }
    }
    throw error
  }
}

/** `site deploy <target>`: sends what changed in the output to the target; `--dry-run` lists it. Exit 1 when the deploy fails. */
export async function runDeployCommand(
  spec: string,
  opts: DeployCommandOptions,
  global: { verbose?: boolean },
): Promise<number> {
  // a signal (a CI cancel) stops the deploy, its command included, and the locks go as it ends
  const stop = new AbortController()
  const release = onStopSignals(stop)
  const deploying = new AbortController()
  stop.signal.addEventListener('abort', () => deploying.abort(new Error(`interrupted by ${stop.signal.reason}`)))
  const { signal } = deploying
  try {
    const root = process.cwd()
    const { outDir, site, otherSites } = await buildOptions(root, opts)
    // a build or publisher must not swap the output in while this deploy reads it (a dry run only lists)
    const unlock = opts.dryRun ? async () => {} : await lockDeployOutput(outDir)
    // at a terminal, a command target's command may ask there (ssh's password), and Ctrl-C reaches it
    const terminal = process.stdin.isTTY === true
    const target = await createDeployTarget(spec, { outDir, root, otherSites, terminal }).catch(
      async (error: unknown) => {
        await unlock()
        throw error
      },
    )
    try {
      const report = await deploy({ outDir, target, site, root, dryRun: opts.dryRun, signal })
      // The list is what a dry run answers, so it goes to stdout with the summary (escaped: paths come from the output).
      if (report.dryRun) {
        const lines = [
          ...DEPLOY_STEPS.flatMap((step) => report.uploads[step].map((path) => `upload ${path}`)),
          ...report.deletes.map((path) => `delete ${path}`),
        ]
        process.stdout.write(lines.map((line) => `${toTerminalLine(line)}\n`).join(''))
      }
      const sent = DEPLOY_STEPS.reduce((n, step) => n + report.uploads[step].length, 0)
      const verb = report.dryRun ? 'would upload' : 'uploaded'
      process.stdout.write(
        `${report.target}: ${verb} ${sent} files, ${report.dryRun ? 'would delete' : 'deleted'} ${report.deletes.length} (build ${report.buildId}, ${report.durationMs} ms)\n`,
      )
      return 0
    } finally {
      await target.close()
      await unlock()
    }
  } catch (error) {
    // stopped by a signal, the process exits as shells report that signal
    const exitCode = stop.signal.aborted ? SIGNAL_EXIT_CODES[stop.signal.reason as StopSignal] : undefined
    return handleError(error, { verbose: global.verbose, command: 'deploy', exitCode })
  } finally {
    release()
  }
}
