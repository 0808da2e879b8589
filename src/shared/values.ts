/** Pure checks of values from JSON (API answers, config files, payloads), shared by server and browser. */

/** A JSON object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
