/**
 * S3 answers a key it does not hold 403 AccessDenied, not 404, to credentials without s3:ListBucket on the bucket.
 * A deploy reads its pending record, which is absent between deploys, before anything else: with a policy granting
 * the objects only (`arn:aws:s3:::bucket/live/*`), every deploy failed with "Access Denied" reading a file the
 * credentials may read, and nothing said what was missing.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createS3Target } from '../../../src/deploy/targets/s3.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

/** A store that answers every request as S3 does a missing key without s3:ListBucket, or with `code`. */
async function denyingStore(code: string) {
  const server = createServer((request, response) => {
    request.resume()
    response.writeHead(403, { 'content-type': 'application/xml' })
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>Access Denied</Message></Error>`,
    )
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  vi.stubEnv('AWS_ENDPOINT_URL_S3', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  vi.stubEnv('AWS_REGION', 'us-east-1')
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'KEY')
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'SECRET')
  return server
}

describe('an S3 target answered 403 AccessDenied', () => {
  it('says, reading a record, that S3 answers so for a missing key without s3:ListBucket', async () => {
    const server = await denyingStore('AccessDenied')
    const target = createS3Target('www-example-com', 'live', process.env)
    try {
      const error = (await target.readRecord('pending').catch((e: unknown) => e)) as Error & { code?: string }
      expect(error.code).toBe('DEPLOY_FAILED')
      expect(error.message).toMatch(
        /^Deploy to s3:\/\/www-example-com\/live failed: reading \.site-deploy-pending\.json: Access Denied \(.*s3:ListBucket/,
      )
    } finally {
      await target.close()
      server.close()
    }
  })

  it('says nothing of s3:ListBucket for credentials the store does not know', async () => {
    const server = await denyingStore('InvalidAccessKeyId')
    const target = createS3Target('www-example-com', 'live', process.env)
    try {
      const error = (await target.readRecord('pending').catch((e: unknown) => e)) as Error
      expect(error.message).toBe(
        'Deploy to s3://www-example-com/live failed: reading .site-deploy-pending.json: Access Denied',
      )
    } finally {
      await target.close()
      server.close()
    }
  })
})
