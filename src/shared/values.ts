/** Pure checks of values from JSON (API answers, config files, payloads), shared by server and browser. */

/** A JSON object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Orders strings by UTF-16 code units, as `sort()` does, whatever the locale: output that is the same everywhere. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
