/**
 * Types of the demo content API. The public ones are re-exported by `server.ts`;
 * the rest is shared by the modules of this folder only.
 */
import type { LanguageEntry, RedirectData } from '../shared/types.js'

/** Makes one request matching `path` (and `query`, when given) fail as `kind` says. */
export interface DemoFault {
  /** Equals the request pathname, as sent or once decoded: `/pl/o-nas`; `*` matches every path. */
  path: string
  /** When set, must be contained in the raw query string (without `?`): `type=834`. */
  query?: string
  kind: 'status500' | 'status503' | 'status404' | 'reset' | 'hang' | 'malformed-json' | 'html'
}

/**
 * Changes the answers of the demo API at run time, as an editor publishing in the CMS: what benchmarks of a
 * generated site (whose content is no files to edit) change between builds.
 */
export interface DemoEdit {
  /** Equals the request pathname, as sent or once decoded: `/section-1/page-2`, or `/pl` for Polish initial data. */
  path: string
  /** When set, must be contained in the raw query string: `type=834` for initial data. Unset: every query. */
  query?: string
  /** Every occurrence of `find` in the JSON answer becomes `replace`. */
  find: string
  replace: string
  /**
   * A scheduled change (a record with a start time): the edit applies from this time on (ms since the epoch).
   * Until then the answer carries `Cache-Control: max-age` up to it, as TYPO3 does with `config.sendCacheHeaders`.
   */
  from?: number
}

/** One request as the demo API saw it. */
export interface DemoRequest {
  method: string
  /** The pathname as sent (not decoded). */
  path: string
  query: Record<string, string>
  headers: Record<string, string | string[] | undefined>
}

export interface DemoApiOptions {
  /** 0 picks a free port. @default 0 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** Every answer waits this long first. @default 0 */
  latencyMs?: number
  /** Folder with site.json, pages/, initial-data/, errors/, redirects.json, fileadmin/. @default <package>/demo/content */
  contentDir?: string
  /** Serve a generated site of this many pages per locale instead of the hand-written pages. */
  generate?: {
    pagesPerLocale: number
    /** Pages and menus that use every content type, header layout and navigation entry kind. @default false */
    everyKind?: boolean
  }
  faults?: DemoFault[]
  /**
   * Also serve this many large JPEG photographs (`/fileadmin/photos/photo-<n>.jpg`, 4000x2667 unless told, with
   * `ETag` and `Last-Modified`) and pages showing three each (`/photos/1`, `/photos/2`…), which the default language's menu links.
   */
  photos?: { count: number; width?: number; height?: number }
}

export interface DemoApi {
  /** `http://127.0.0.1:PORT` */
  url: string
  /** The latest requests, oldest first (capped, see DEMO_REQUEST_LOG_LIMIT). */
  requests: DemoRequest[]
  setFaults(faults: DemoFault[]): void
  /** Replaces the edits applied to answers (none by default). */
  setEdits(edits: DemoEdit[]): void
  setLatency(ms: number): void
  /**
   * Reads the content folder again, as a CMS publishes: the next answers come from the files as they
   * are now (a generated site is generated anew). Rejects, serving the content as it was, when a file is invalid.
   */
  reload(): Promise<void>
  close(): Promise<void>
}

/** A site language of demo/content/site.json: a language entry template plus its base path. */
export interface DemoLanguage extends Omit<LanguageEntry, 'link' | 'active' | 'available'> {
  /** `/` for the default language, `/pl/` for Polish. */
  base: string
}

/**
 * Where answers come from: the hand-written content or the generator.
 * Bodies are serialised JSON that may hold ORIGIN_TOKEN, replaced per request.
 */
export interface DemoSource {
  readonly languages: readonly DemoLanguage[]
  /** The page at a normalised path (`/`, `/pl`, `/pl/o-nas`). */
  page(path: string): string | undefined
  redirect(path: string): RedirectData | undefined
  initialData(language: DemoLanguage): string
  notFound(language: DemoLanguage): string
}

/** Stands for the request's origin (`http://127.0.0.1:PORT`) in content files. */
export const ORIGIN_TOKEN = '{{origin}}'
