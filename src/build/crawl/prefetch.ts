/**
 * Page answers asked of the API ahead of a build. A long-lived builder (`site publish`) asks for the pages a CMS
 * event names as soon as the event is recorded, while the publisher waits for its quiet period; the next build
 * takes those answers instead of asking again, so a burst of edits is mostly fetched by the time it is built.
 *
 * An answer is only ever newer than the events that name its page: a later event naming the same page replaces
 * it with a new request, and a build takes the answers there are when it starts (one asked during that build
 * waits for the next). It may be older than the event of a page it links to (a parent renamed after it was
 * asked: its breadcrumbs show the old title), so the order of the asks is kept, and the build asks again for such
 * an answer when that page's answer changed what others show of it (build/incremental/only.ts). An answer that
 * failed is asked again by the build; one the build does not use ends with it. The pages asked for are those an
 * `--only` build of the same items fetches again (`namedPages`, over the last build's page table); anything else
 * is the build's to find.
 */
import type { LimitFunction } from 'p-limit'
import type { ApiClient } from '../../api/client.js'
import { buildIssues } from '../../errors.js'
import type { OutputMemory } from '../incremental/previous.js'
import { namedPages, parseOnly } from '../incremental/reuse.js'
import { type ApiAnswer, fetchPage } from './fetch-page.js'

export interface Prefetch {
  /** Asks for the pages `items` (`--only` items: uids and paths) name; the answers wait for the next build. */
  ask(items: readonly string[]): void
  /**
   * Asks for those of them that nothing asked for yet: a build's own items as it starts, so that their answers come
   * in while it asks for the initial data (an answer asked for an event is as new as the build's own would be).
   */
  askMissing(items: readonly string[]): void
  /** The answers asked so far, handed over: the asks that follow start a new set. */
  take(): PrefetchedAnswers
}

export interface PrefetchedAnswers {
  /** The answers by page path. */
  answers: Map<string, Promise<ApiAnswer>>
  /**
   * The ask each was asked in (1, 2, …, one a CMS event): answers of one ask are as new as each other; the build
   * compares them with the asks of the pages they link to.
   */
  ask: ReadonlyMap<string, number>
}

/** What an ask replaced before it was sent stands for: no build takes it (one would ask again, as for a failed one). */
const REPLACED: ApiAnswer = { type: 'error', ...buildIssues.api(new Error('replaced by a later ask')) }

export function createPrefetch(input: {
  memory: OutputMemory
  api: ApiClient
  /** The API's share of the concurrency, the same as the builds' (the CMS sees one budget). */
  slot: LimitFunction
  /** Most answers held for one build: beyond, pages are left to the build. */
  maxPages: number
}): Prefetch {
  let answers = new Map<string, Promise<ApiAnswer>>()
  let ask = new Map<string, number>()
  let asks = 0
  const replaced = new WeakSet<Promise<ApiAnswer>>()
  // the pages an `--only` build of `items` fetches again (namedPages), as the last build knows them
  const pathsOf = (items: readonly string[]): string[] => {
    const pages = input.memory.last?.store.pages
    return pages ? namedPages(pages, parseOnly(items).targets).paths : []
  }
  const askFor = (items: readonly string[], replace: boolean) => {
    asks++
    for (const path of pathsOf(items)) {
      // a later event: its answer replaces the one asked before it
      if (answers.has(path) ? !replace : answers.size >= input.maxPages) continue
      const before = answers.get(path)
      if (before) replaced.add(before)
      // one replaced before its turn is not sent: nothing takes its answer (a burst of events asks once)
      const answer: Promise<ApiAnswer> = input.slot(() =>
        replaced.has(answer) ? REPLACED : fetchPage(input.api, path),
      )
      answers.set(path, answer)
      ask.set(path, asks)
    }
  }
  return {
    ask: (items) => askFor(items, true),
    askMissing: (items) => askFor(items, false),
    take() {
      const taken = { answers, ask }
      answers = new Map()
      ask = new Map()
      return taken
    },
  }
}
