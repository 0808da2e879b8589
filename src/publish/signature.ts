/**
 * TYPO3 core webhooks sign each request: header `Webhook-Signature` = hex HMAC-SHA256 with the webhook's
 * secret over `<webhook identifier>:<raw body>` (typo3/cms-webhooks, WebhookMessageHandler::buildHash).
 * The bearer token of `/hooks/pages` and `/hooks/full` is compared in constant time as well.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { WebhookRecord } from '../config/types.js'

/** The signature TYPO3 sends for `body` from the webhook record `webhook`. */
export const typo3Signature = (webhook: WebhookRecord, body: Uint8Array): string =>
  createHmac('sha256', webhook.secret).update(`${webhook.identifier}:`).update(body).digest('hex')

const HEX_SHA256_RE = /^[0-9a-f]{64}$/i

/** Whether `header` can be a signature at all (hex SHA-256): checked before the body it signs is read. */
export const isSignatureHeader = (header: string | undefined): header is string =>
  header !== undefined && HEX_SHA256_RE.test(header.trim())

/**
 * The webhook record whose signature `header` is, or undefined (missing, malformed, unknown, wrong).
 * Every record is tried, each in constant time, so the answer's timing tells nothing about the secrets.
 */
export function findSigner(
  webhooks: readonly WebhookRecord[],
  header: string | undefined,
  body: Uint8Array,
): WebhookRecord | undefined {
  if (!isSignatureHeader(header)) return undefined
  const given = Buffer.from(header.trim().toLowerCase(), 'hex')
  let found: WebhookRecord | undefined
  for (const webhook of webhooks) {
    // anyone who knows the identifier can sign with an empty secret (site publish refuses to start with one)
    if (!webhook.secret) continue
    const expected = Buffer.from(typo3Signature(webhook, body), 'hex')
    if (timingSafeEqual(given, expected) && !found) found = webhook
  }
  return found
}

/** True when `header` is `Bearer <token>`; compared as digests (equal lengths, constant time). */
export function isBearer(token: string | undefined, header: string | undefined): boolean {
  if (!token || !header) return false
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(match[1]!), digest(token))
}
