import { describe, expect, it } from 'vitest'
import { createHookHandler } from '../../../src/publish/handler.js'
import type { Publisher } from '../../../src/publish/publisher.js'

/** A publisher that takes no event: these requests are refused before one would reach it. */
const publisher = { accepting: true } as unknown as Publisher

describe('the webhook routes', () => {
  it('says that no webhook is configured, not that the signature is wrong, when publish.webhooks is empty', async () => {
    const lines: string[] = []
    const handle = createHookHandler({
      publisher,
      options: { webhooks: [], token: undefined },
      log: (line) => lines.push(line),
    })
    const answer = await handle({
      method: 'POST',
      path: '/hooks/typo3',
      headers: { 'webhook-signature': '0'.repeat(64) },
      body: async () => Buffer.from('{}'),
    })
    expect(answer.status).toBe(401)
    expect(JSON.parse(answer.body)).toEqual({ error: 'no publish.webhooks are configured' })
    expect(lines).toEqual(['401 /hooks/typo3: no publish.webhooks are configured'])
  })
})
