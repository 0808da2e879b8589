/**
 * A store that takes connections and never answers (a stopped store behind a proxy, packets dropped) failed the
 * deploy with the SDK's "the request socket timed out …", which names neither host nor port: with a store of one's
 * own (AWS_ENDPOINT_URL_S3), a typo in it or a store that is down could not be told from the message.
 */

import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createS3Target } from '../../../src/deploy/targets/s3.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('an S3 target whose store never answers', () => {
  it('fails naming the endpoint that did not answer', async () => {
    const sockets = new Set<Socket>()
    const hung = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((done) => hung.listen(0, '127.0.0.1', done))
    const endpoint = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`
    vi.stubEnv('AWS_ENDPOINT_URL_S3', endpoint)
    vi.stubEnv('AWS_REGION', 'us-east-1')
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER')
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER')
    const target = createS3Target('www-example-com', 'live', process.env, { idleTimeoutMs: 100 })
    try {
      const error = (await target.readRecord('pending').catch((e: unknown) => e)) as Error & { code?: string }
      expect(error.code).toBe('DEPLOY_FAILED')
      expect(error.message).toMatch(
        /^Deploy to s3:\/\/www-example-com\/live failed: reading \.site-deploy-pending\.json: /,
      )
      expect(error.message).toContain(`timed out`)
      expect(error.message).toContain(`(no answer from ${new URL(endpoint).host})`)
    } finally {
      await target.close()
      for (const socket of sockets) socket.destroy()
      hung.close()
    }
  })
})
