/**
 * Pure: one line per failure, skipped item and note of a build, for stderr in every mode (a CI log
 * that sends stdout to a file still says why a build failed). Each line is written from the item's
 * fields: severity, kind, path, status, cause, and where it came from.
 * Example: `error BROKEN_NAV_LINK /careers 404: the API answers 404 (linked from /) [from /; page uid 1]`
 */
import { describeSource } from '../errors.js'
import type { BuildResult } from '../index.js'

type Failure = BuildResult['failures'][number]
type Skipped = BuildResult['skipped'][number]

/** What failed, with what and where: `/careers 404: the API answers 404… [from /; page uid 1]` (stderr lines and annotations). */
export const describeFailure = (f: Failure): string => `${f.path} ${f.status}: ${f.reason}${describeSource(f)}`

/** Whether a reason starts by naming its item, as a data problem's does (`/contact content[2]: …`, `/contact: …`). */
const namesItem = (s: Skipped): boolean =>
  s.reason.startsWith(s.item) && /^[\s:.([]/.test(s.reason.slice(s.item.length))

/**
 * What was skipped, why and where: `/gone 404: the API answers 404 [from /a]`; the status when there is one. A
 * reason that starts with its item already says where: the item is not said twice.
 */
export const describeSkipped = (s: Skipped): string => {
  const what =
    s.status === undefined && namesItem(s)
      ? s.reason
      : `${s.item}${s.status === undefined ? '' : ` ${s.status}`}: ${s.reason}`
  return `${what}${describeSource(s)}`
}

/** The lines, failures first, then skipped items, then notes. Not yet escaped for the terminal. */
export function formatDiagnostics(result: Pick<BuildResult, 'failures' | 'skipped' | 'notes'>): string[] {
  return [
    ...result.failures.map((f) => `error ${f.kind} ${describeFailure(f)}`),
    ...result.skipped.map((s) => `warning ${s.kind} ${describeSkipped(s)}`),
    ...result.notes.map((note) => `note: ${note}`),
  ]
}
