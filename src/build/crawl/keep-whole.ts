/**
 * An `--only` build of a long-lived builder (`site publish`) whose pages still link as they did: the
 * previous pages are kept whole instead of crawled one by one (30,000 of them for one edited page).
 *
 * The crawl of an `--only` build is the full build's crawl (reuse.ts): from the same seeds it reaches
 * every page, keeps most of them and asks the API again for the rest. When the previous output is the
 * builder's own last one (OutputMemory: its pages are what that crawl reached), no page is rendered
 * again from its payload, and every page and path asked again answers as before (a page of the same
 * uid linking to the same paths, a 404 still a 404, a redirect to the same target), that crawl would
 * reach the very same pages over the very same links. So they are built aside first; if that holds,
 * they are committed and every other page is kept as it is, with no crawl. If it does not (a link
 * was added, a page moved), what was built aside is thrown away, their answers are handed to the
 * crawl, and the crawl runs as usual: a page that is no longer linked is then not built at all.
 */
import pLimit from 'p-limit'
import { ONLY_PREFETCH_MAX_PAGES } from '../../shared/constants.js'
import { BUILD_STORE_FILE } from '../../shared/layout.js'
import { toHtmlFile, toPayloadFile } from '../../shared/url.js'
import type { PreviousOutput } from '../incremental/previous.js'
import type { ReusePlan } from '../incremental/reuse.js'
import { createStagedWriter, type FileWriter } from '../output/write.js'
import type { PageTable } from '../page-table.js'
import { createStagedState } from '../state.js'
import type { DiscoveredPath } from './crawl.js'
import type { ApiAnswer } from './fetch-page.js'
import { askApi, buildPath, type PagePipeline } from './pages.js'

/** What keeping the previous pages whole did. */
export interface KeptWhole {
  /** The pages built again (asked of the API); every other page of the previous output was kept. */
  rebuilt: ReadonlySet<string>
  /** The previous output's pages, whose rows the other pages' are. */
  from: PageTable
  /** The previous output's files that are no page's (its state's `files`): as the pages are its pages, so are their files. */
  otherFiles: ReadonlyMap<string, string>
  /** How a path the API answered with 404 was found (for the report): the first page linking to it. */
  originOf(path: string): DiscoveredPath | undefined
}

/**
 * Keeps the previous pages whole (see above), or undefined when the crawl must run: the previous output is
 * not a builder's last, a kept page is rendered again, more paths are asked than a build holds aside
 * (ONLY_PREFETCH_MAX_PAGES), or what was built aside does not link as before.
 */
export async function keepWhole(
  p: PagePipeline,
  input: { plan: ReusePlan; previous: PreviousOutput; writer: Pick<FileWriter, 'keepAllBut'>; maxInFlight: number },
): Promise<KeptWhole | undefined> {
  const { plan, previous } = input
  const { pages, store } = previous
  if (!previous.hashes || !previous.otherFiles || plan.rendersKept) return undefined
  const asked = [...plan.targets, ...plan.dependents]
  if (!asked.every((path) => pages.has(path))) return undefined
  // the paths the last crawl reached that were no page: asked again, as the crawl would
  const redirects = store.redirects.filter((redirect) => redirect.kind === 'api')
  const paths = [...new Set([...asked, ...store.notFound.map((n) => n.path), ...redirects.map((r) => r.from)])]
  if (paths.length > ONLY_PREFETCH_MAX_PAGES) return undefined

  // Built aside: the answers are the plan's (or asked now), with a copy for the crawl should it run after all.
  const staged = createStagedState(p.state)
  const writes = createStagedWriter(p.writer)
  const copies = new Map<string, ApiAnswer>()
  const answerOf = async (path: string): Promise<ApiAnswer> => {
    const answer = plan.takeAnswer(path) ?? (await askApi(p, path))
    copies.set(
      path,
      answer.type === 'answer'
        ? { ...answer, answer: { ...answer.answer, body: new Uint8Array(answer.answer.body) } }
        : answer,
    )
    return answer
  }
  let stopped = false
  const aside: PagePipeline = {
    ...p,
    state: staged.state,
    writer: writes.writer,
    reuse: undefined,
    prefetched: new Map(paths.map((path) => [path, answerOf(path)])),
    stopCrawl: () => {
      stopped = true
    },
  }
  const limit = pLimit(input.maxInFlight)
  await Promise.all(paths.map((path) => limit(() => buildPath(aside, path))))

  const built = staged.state
  const asBefore =
    !stopped &&
    built.failures.length === 0 &&
    built.pages.size === asked.length &&
    asked.every((path) => built.pages.sameLinks(path, pages)) &&
    store.notFound.every((n) => built.notFound.some((found) => found.path === n.path)) &&
    redirects.every((r) =>
      built.redirects.some((found) => found.from === r.from && found.to === r.to && found.statusCode === r.statusCode),
    )
  if (!asBefore) {
    for (const [path, answer] of copies) plan.keepAnswer(path, answer)
    return undefined
  }
  await writes.commit()
  staged.commit()
  const rebuilt = new Set(asked)
  // the files of every page but the rebuilt ones: every file of the last output but those and the state's other files
  const rebuiltFiles = asked.flatMap((path) => [toHtmlFile(path), toPayloadFile(path)])
  if (!input.writer.keepAllBut([...rebuiltFiles, ...previous.otherFiles.keys(), BUILD_STORE_FILE]))
    throw new Error("the builder's last output has no file hashes to keep")
  // every page in the previous table's order, the rebuilt ones as built now
  p.state.keepPages(pages, built.pages)
  return {
    ...{ rebuilt, from: pages, otherFiles: previous.otherFiles },
    originOf: firstLinking(pages, new Set(built.notFound.map((n) => n.path))),
  }
}

/** For each of `paths`, the first page of `pages` that links to it (a 404's origin in the report). */
function firstLinking(pages: PageTable, paths: ReadonlySet<string>): KeptWhole['originOf'] {
  const found = new Map<string, DiscoveredPath>()
  if (paths.size) {
    const ids = new Set([...paths].map((path) => pages.pool.id(path)))
    for (const page of pages.pathsLinkingTo(ids)) {
      const links = pages.linkIdsOf(page)
      for (const [list, origin] of [
        [links?.nav, 'nav'],
        [links?.content, 'content'],
      ] as const)
        for (const id of list ?? []) {
          const path = pages.pool.at(id)
          // as the crawl has it: the first page to link to it, or the first to link to it from navigation, and its uid
          if (ids.has(id) && (!found.has(path) || (origin === 'nav' && found.get(path)?.origin === 'content'))) {
            const pageUid = pages.uidOf(page)
            found.set(path, { path, origin, from: page, ...(pageUid === undefined ? {} : { pageUid }) })
          }
        }
    }
  }
  return (path) => found.get(path)
}
