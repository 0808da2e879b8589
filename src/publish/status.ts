/**
 * What `GET /status` answers: the publisher's state as JSON, or as a small HTML page for editors (every
 * value escaped; nothing secret is in the state: no webhook secret, no token, no API header).
 */
import { escapeHtml } from '../shared/escape.js'

export interface PublishRecord {
  ok: boolean
  /** The pages the publish was asked for (uids or paths; at most 50 listed), empty for a full build. */
  pages: string[]
  /** A full build over the previous output (reconcile, file message, `/hooks/full`). */
  full: boolean
  events: number
  /** Pages whose files changed. */
  changed: number
  /** From the first event it carries to deployed (or to failed). */
  latencyMs: number
  buildMs: number
  deployMs: number
  /** Files sent to the deploy target, or written into the output folder without one. */
  filesUploaded: number
  /** Files deleted from the deploy target (gone from the output; a content-hashed one for `build.keepBuilds` builds). */
  deleted: number
  finishedAt: string
  error?: string
}

export interface PublishStatus {
  site: string
  outDir: string
  deploy: string | null
  accepting: boolean
  /** False since a journal write failed (disk full), until one succeeds: webhooks are then answered 503. */
  journalWritable: boolean
  pending: number
  building: boolean
  /** Journal appends waiting for the disk. */
  queuedAppends: number
  journalBytes: number
  /** When a failed publish is tried again, if it failed. */
  retryAt: string | null
  lastReconcile: string | null
  nextReconcile: string | null
  /** Pages whose API answer gave a time it may change (a scheduled record), and the earliest such time. */
  scheduled: { pages: number; next: string | null }
  /** Publishes since start, live and failed (`publishes` lists only the latest). */
  publishCount: { ok: number; failed: number }
  publishes: PublishRecord[]
}

const cell = (value: unknown): string => `<td>${escapeHtml(String(value ?? ''))}</td>`

/** What a publish was asked for: the check at start, the publisher's own, names no page. */
const pagesOf = (p: PublishRecord): string =>
  p.full ? 'all pages' : p.pages.length ? p.pages.join(', ') : 'the check at start'

export function statusHtml(status: PublishStatus): string {
  const rows = status.publishes
    .map(
      (p) =>
        `<tr class="${p.ok ? 'ok' : 'failed'}">${cell(p.finishedAt)}${cell(p.ok ? 'live' : 'failed')}${cell(pagesOf(p))}${cell(p.changed)}${cell(p.events ? `${p.latencyMs} ms` : '-')}${cell(p.filesUploaded)}${cell(p.error ?? '')}</tr>`,
    )
    .join('\n')
  const facts: Array<[string, unknown]> = [
    ['Site', status.site],
    ['Deploys to', status.deploy ?? status.outDir],
    ['Waiting edits', status.pending],
    ['Building now', status.building ? 'yes' : 'no'],
    ['Next try after a failure', status.retryAt ?? '-'],
    ['Last full check', status.lastReconcile ?? '-'],
    ['Next full check', status.nextReconcile ?? '-'],
    [
      'Scheduled changes',
      status.scheduled.pages ? `${status.scheduled.pages} page(s), next at ${status.scheduled.next}` : '-',
    ],
  ]
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="refresh" content="10"><title>Publishing status</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}.failed{background:#fee}</style>
</head><body><h1>Publishing status</h1>
<table>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th>${cell(v)}</tr>`).join('')}</table>
<h2>Latest publishes</h2>
<table><tr><th>Finished</th><th>State</th><th>Pages</th><th>Changed</th><th>Edit to live</th><th>Files sent</th><th>Error</th></tr>
${rows}</table></body></html>
`
}
