/**
 * Page payloads (`{path}/_payload.json`): what client navigation renders from, written by the
 * build and answered live by preview, in one shape (`PagePayload`).
 */
import type { PagePayload } from '../shared/contract.js'

/**
 * JSON of `object` with one more member, `key`, whose value is already JSON text:
 * how one serialisation of a page serves both its boot JSON and its payload.
 * Example: ({ a: 1 }, 'page', '{"id":2}') -> '{"a":1,"page":{"id":2}}'.
 */
export const jsonWithMember = (object: object, key: string, valueJson: string): string =>
  `${memberHead(object, key)}${valueJson}}`

/**
 * jsonWithMember as parts whose concatenation is its text, the value given as parts too: a page's JSON
 * (tens of KB) stays the one string it is, never copied into a longer one.
 * Example: ({ a: 1 }, 'page', ['{"id":2}']) -> ['{"a":1,"page":', '{"id":2}', '}'].
 */
export const jsonWithMemberParts = (object: object, key: string, valueParts: readonly string[]): string[] => [
  memberHead(object, key),
  ...valueParts,
  '}',
]

/** The text of `object` as JSON up to a further member's value: ({ a: 1 }, 'page') -> '{"a":1,"page":'. */
function memberHead(object: object, key: string): string {
  const json = JSON.stringify(object)
  return `${json.slice(0, -1)}${json === '{}' ? '' : ','}${JSON.stringify(key)}:`
}

export interface PayloadHead {
  clientVersion: string
  locale: string
  path: string
  status: number
  /** Where the locale's initial data is: the build's content-hashed file, or preview's live URL. */
  initialDataUrl: string
}

/** The payload of a page, as JSON text, from the page's own JSON text (`JSON.stringify(page)`). */
export const pagePayloadJson = (head: PayloadHead, pageJson: string): string => jsonWithMember(head, 'page', pageJson)

/** pagePayloadJson as parts whose concatenation is its text (see jsonWithMemberParts). */
export const pagePayloadParts = (head: PayloadHead, pageJson: string): string[] =>
  jsonWithMemberParts(head, 'page', [pageJson])

/** The payload the client reads instead of a page at a redirecting path. */
export const redirectPayload = (options: {
  clientVersion: string
  locale: string
  path: string
  to: string
  statusCode: number
}): PagePayload => ({
  clientVersion: options.clientVersion,
  locale: options.locale,
  path: options.path,
  redirect: { to: options.to, statusCode: options.statusCode },
})
