/**
 * `site build`: every page of every locale to static files. This function is
 * the table of contents; each stage lives in its own module (see stages.ts).
 * Everything is written to a temporary folder beside OUT, which replaces OUT
 * only when no path failed.
 */
import { join } from 'node:path'
import { errors, WritingFailed } from '../errors.js'
import type { MediaService } from '../media/service.js'
import { startMedia } from '../media/stage.js'
import type { MediaStats } from '../media/types.js'
import { isInsideOrEqual } from '../project/inside.js'
import { missingTemplateNotes } from '../render/missing-templates.js'
import { compareStrings } from '../shared/values.js'
import { summarizePageChanges } from './incremental/changes.js'
import { fileStamp } from './incremental/disk.js'
import { planOnly, readOnlyOption } from './incremental/only.js'
import {
  type CommittedOutput,
  currentEngine,
  loadPrevious,
  otherBuilder,
  type PreviousOutput,
  sealOf,
} from './incremental/previous.js'
import { namedFileRefs } from './incremental/reuse.js'
import type { BuildStore, StoreLines } from './incremental/store.js'
import { keepEarlierBuilds, writeStore } from './incremental/store-stages.js'
import { verifiedRecordFile, writeVerified } from './incremental/verified.js'
import type { IdLines } from './output/manifest.js'
import {
  applyToOutput,
  checkOutDir,
  checkOutDirContents,
  checkOutDirSite,
  checkOutputLock,
  createTempOutput,
  discardOutput,
  inspectOutDir,
  type OutDirContents,
  type OutputFolders,
  removeStaleSiblings,
  swapInOutput,
} from './output/output.js'
import { createFileWriter, type FileWriter } from './output/write.js'
import { type BuildRun, type BuildWiring, createBuildRun } from './run.js'
import {
  crawlPages,
  createRenderService,
  loadInputs,
  startRenderers,
  writeClientFiles,
  writeInitialData,
  writeManifests,
  writeNotFoundPages,
  writePublicFiles,
  writeSiteFiles,
  writeSlugRedirects,
} from './stages.js'
import type { BuildManifest, BuildOptions, BuildResult, OnlyReport, SlugChange } from './types.js'

export type { BuildOptions, BuildResult } from './types.js'

/** What a missing OUT holds once removeStaleSiblings ran: a previous output it put back, or still nothing of one. */
async function restoredContents(outDir: string): Promise<OutDirContents> {
  return (await inspectOutDir(outDir)) === 'site-output' ? 'site-output' : 'missing'
}

/**
 * Builds the site. Per-path failures are collected, not thrown: the result lists
 * them and OUT stays as it was. Initial data unavailable, bad options and I/O
 * errors outside a page throw (and leave OUT as it was too).
 */
export async function build(options: BuildOptions & BuildWiring): Promise<BuildResult> {
  const run = createBuildRun(options)
  const only = readOnlyOption(options.only)
  checkOutDir(run.outDir, run.config.root)
  await checkOutputLock(run.outDir)
  const checked = await checkOutDirContents(run.outDir, { force: options.force })
  if (checked === 'site-output') await checkOutDirSite(run.outDir, run.site, run.config.sites, { force: options.force })
  const stale = await removeStaleSiblings(run.outDir)
  if (stale.length) run.logger.info(`Removed what interrupted builds left beside ${run.outDir}: ${stale.join(', ')}`)
  // a swap cut between its two renames: the output it moved aside is back in OUT's place, a previous output as any
  const contents = checked === 'missing' ? await restoredContents(run.outDir) : checked
  run.logger.info(`Building ${run.site.i18n.locales.join(', ')} from ${run.site.api.baseUrl} into ${run.outDir}`)
  // render workers load the templates while the rest starts (unless a builder's are warm already)
  const render = options.render ?? createRenderService(run, options)
  try {
    // The client bundle (esbuild), the templates (render workers) and the initial data (the API) are
    // waited for while this thread reads the previous output: an `--only` build's start costs the
    // longer of the two, not their sum. Settled below; a failure is thrown there.
    const loading = loadInputs(run, render, options)
    loading.catch(() => {})
    const { memory } = options
    const verifiedRecord = verifiedRecordFile(run.config.root, run.outDir)
    const lookup = await loadPrevious(run.outDir, contents, {
      site: run.site,
      pool: run.pool,
      memory,
      trustLast: only !== undefined,
      verifiedRecord,
    })
    const previous = lookup.type === 'found' ? lookup.previous : undefined
    // a full build renders at least as many pages as the last one did
    if (previous && !only) render.expect?.(previous.pages.size)
    // what the builder knew of OUT holds again only when this build leaves OUT as it was, or anew once it committed
    const lastKnown = memory?.last
    if (memory) memory.last = undefined
    if (lookup.type === 'none' && contents === 'site-output')
      run.state.notes.push(`Built every file into a fresh output folder: ${lookup.reason}`)
    const engine = currentEngine()
    // the previous output's derived files (its sitemap) are as good as new ones only from this engine and config
    const sameBuilder = previous && otherBuilder(previous, engine, run.site) === undefined ? previous : undefined
    const output = await createTempOutput(run.outDir)
    // With a previous output, only files whose bytes change are written (and then moved into OUT).
    const writer = createFileWriter(output.tempDir, { previous })
    let media: MediaService | undefined
    try {
      const inputs = await loading
      run.checkInterrupted()
      await writeClientFiles(writer, inputs)
      // before the initial data, which may name files too (a footer's image)
      let partial: Awaited<ReturnType<typeof planOnly>> | undefined
      media = await startMedia({
        ...{ site: run.site, writer, apiSlot: run.apiSlot, outDir: run.outDir, signal: run.signal },
        ...{
          previous,
          partial: () => (partial?.plan === undefined ? undefined : { shown: run.state.pages.fileRefs() }),
          refetch: only && namedFileRefs(only),
          refetchShownBy: (page) => partial?.plan?.showingNamedFiles.has(page) === true,
          dispatcher: run.api.dispatcher,
        },
        fail: (failure) => run.state.fail({ ...failure, status: 502 }),
      })
      const locales = await writeInitialData(run, writer, { inputs, options, media })
      await startRenderers(run, render, { inputs, locales })
      const { clientVersion } = inputs
      partial = only
        ? await planOnly(run, {
            ...{ only, requested: options.only ?? [], lookup, engine, clientVersion, locales },
            initialData: inputs.initialData,
          })
        : undefined
      const crawl = await crawlPages(run, {
        ...{ render, writer, locales, clientVersion, media },
        ...{ reuse: partial?.plan, previous },
      })
      if (partial?.plan) partial.report.crawled = crawl.keptWhole === undefined
      await writeNotFoundPages(run, writer, { render, inputs, media })
      await writePublicFiles(run, writer, inputs)
      const mediaStats = await media?.finish()
      // that was the last render: the workers' heaps are not held through the end phase (peak RSS)
      await render.close()
      const history = lookup.type === 'none' ? lookup.history : undefined
      const slugs = await writeSlugRedirects(run, { ...crawl, writer, previous, history })
      await writeSiteFiles(run, writer, { inputs, previous: sameBuilder, rebuilt: crawl.keptWhole?.rebuilt })
      const builds = keepEarlierBuilds(run, writer, previous)
      const { manifest, idLines } = await writeManifests(run, writer, {
        inputs,
        idLines: lastKnown?.idLines,
        keepIdLines: memory !== undefined,
        // the pages kept whole are the last output's, and so are the redirects (the same sources asked again)
        lastPrerendered: crawl.keptWhole && lastKnown?.prerendered,
      })
      const { store, lines, sortedPages } = await writeStore(run, writer, {
        ...{ engine, manifest, locales, builds, slugs: slugs.redirects },
        ...{ lastLines: lastKnown?.lines, keepLines: memory !== undefined },
        keptWhole: crawl.keptWhole,
      })
      run.checkInterrupted()
      const slugChanges = slugs.changes
      const result = await finish(run, {
        output,
        writer,
        manifest,
        previous,
        only: partial?.report,
        slugs: slugChanges,
        mediaStats,
        verifiedRecord,
        rebuilt: crawl.keptWhole?.rebuilt,
        sortedPages,
      })
      if (memory)
        memory.last = result.failures.length
          ? lastKnown
          : committed(run.outDir, { store, lines, idLines, prerendered: manifest.prerendered }, writer)
      return result
    } catch (error) {
      await media?.close()
      await discardOutput(output)
      // a request the stop signal ended fails as the stop it is, not as the API failing
      run.checkInterrupted()
      // a file beside the pages (the state, a manifest) the disk refused: the output folder cannot take this build;
      // one elsewhere (the project's cache) is no fault of the output folder
      const refused = error instanceof WritingFailed && isInsideOrEqual(output.tempDir, error.file)
      throw refused ? errors.outDirUnwritable(run.outDir, error.message, error) : error
    }
  } finally {
    await render.close()
    await run.api.close()
  }
}

/** The output as this build committed it, for the next build of a long-lived builder (OutputMemory). */
function committed(
  outDir: string,
  written: {
    store: BuildStore
    lines: StoreLines | undefined
    idLines: IdLines | undefined
    prerendered: readonly string[]
  },
  writer: FileWriter,
): CommittedOutput | undefined {
  const seal = sealOf(outDir)
  return seal ? { outDir, ...written, hashes: writer.outputs(), seal } : undefined
}

/**
 * Records every file of the committed output with its stamp and hash (verified.ts): the next build over OUT
 * reads only what was written since. Files this build wrote are stamped where they now are; kept ones have
 * the stamp they were checked with. Not after an `--only` build that took a builder's memory of OUT (it
 * walked nothing): the record of the last walk still holds for what it kept.
 */
function recordVerified(
  outDir: string,
  record: string,
  input: { writer: FileWriter; previous: PreviousOutput | undefined },
): void {
  const { writer, previous } = input
  if (previous && !previous.verifiedStamp) return
  const written = new Set(writer.written())
  const files: Array<[string, string, string]> = []
  for (const [path, hash] of writer.outputs()) {
    const stamp = written.has(path) ? fileStamp(join(outDir, path)) : previous?.verifiedStamp?.(path)
    if (stamp) files.push([path, stamp, hash])
  }
  writeVerified(record, files)
}

/** Files listed in a note of the build report, at most. */
const NOTED_FILES = 5

const listFiles = (paths: readonly string[]): string =>
  paths
    .slice(0, NOTED_FILES)
    .map((path) => JSON.stringify(path))
    .join(', ') + (paths.length > NOTED_FILES ? ` and ${paths.length - NOTED_FILES} more` : '')

/** The previous output is checked, not trusted: what was on disk and should not have been is said in the report. */
function noteDiskChanges(run: BuildRun, previous: PreviousOutput): void {
  const { unlisted } = previous
  const changed = previous.changed()
  if (unlisted.length)
    run.state.notes.push(
      `Removing ${unlisted.length} file(s) the previous build did not write, found in the output folder: ${listFiles(unlisted)}`,
    )
  if (changed.length)
    run.state.notes.push(
      `Writing again ${changed.length} file(s) that are missing or changed since the previous build wrote them: ${listFiles(changed)}`,
    )
}

/** Swaps the output in (no failures) or throws it away, and sums up the run. */
async function finish(
  run: BuildRun,
  input: {
    output: OutputFolders
    writer: FileWriter
    manifest: BuildManifest
    previous: PreviousOutput | undefined
    only: OnlyReport | undefined
    slugs: SlugChange[]
    mediaStats: MediaStats | undefined
    verifiedRecord: string
    /** The only pages built when the others were kept whole (keep-whole.ts). */
    rebuilt: ReadonlySet<string> | undefined
    /** The pages' paths, sorted (as the build state lists them). */
    sortedPages: readonly string[]
  },
): Promise<BuildResult> {
  const { state } = run
  const { output, writer, previous } = input
  if (state.failures.length > 0) await discardOutput(output)
  else if (!previous) await swapInOutput(output)
  else {
    noteDiskChanges(run, previous)
    const outputs = writer.outputs()
    const removed: string[] = []
    // once the writer kept the last output whole, only the files it touched can be gone
    for (const path of writer.touched() ?? previous.disk.files.keys()) if (!outputs.has(path)) removed.push(path)
    await applyToOutput(output, {
      written: writer.written(),
      removed,
      folders: previous.disk.emptyDirs,
      existing: previous.disk.files,
    })
  }
  if (state.failures.length === 0) recordVerified(run.outDir, input.verifiedRecord, { writer, previous })
  const { files, bytes, kept } = writer.stats()
  return {
    buildId: input.manifest.id,
    outDir: run.outDir,
    pages: {
      total: state.pages.size,
      byLocale: { ...state.pagesByLocale },
      paths: [...input.sortedPages],
    },
    redirects: [...state.redirects].sort((a, b) => compareStrings(a.from, b.from)),
    failures: [...state.failures].sort((a, b) => compareStrings(a.path, b.path)),
    skipped: [...state.skipped].sort((a, b) => compareStrings(a.item, b.item) || compareStrings(a.reason, b.reason)),
    notes: [...state.notes, ...missingTemplateNotes(state.missingTemplates)],
    missingTemplates: state.missingTemplates.list(),
    bytesWritten: bytes,
    filesWritten: files,
    filesKept: kept,
    changes: {
      pages: summarizePageChanges({
        previous: previous?.pages,
        pages: state.pages,
        written: writer.written(),
        moved: input.slugs,
        rebuilt: input.rebuilt,
      }),
      slugs: input.slugs,
    },
    ...(input.only ? { only: input.only } : {}),
    ...(input.mediaStats ? { media: input.mediaStats } : {}),
    recheck: {
      complete: input.only === undefined || input.only.fallback !== undefined,
      pages: [...state.recheck].sort(([a], [b]) => compareStrings(a, b)).map(([path, at]) => ({ path, at })),
    },
    durationMs: run.now() - run.startedAt,
    timings: { ...state.timings },
    manifest: input.manifest,
  }
}
