/**
 * A team's first `site deploy s3://…` without a region failed with the SDK's "Region is missing", which
 * names neither the variable to set nor where else a region may come from.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createS3Target } from '../../../src/deploy/targets/s3.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('an S3 target without a region', () => {
  it('fails naming the target and what to set', async () => {
    for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'])
      vi.stubEnv(name, undefined)
    // no config file with a region: only the environment could give one
    vi.stubEnv('AWS_CONFIG_FILE', join(import.meta.dirname, 'no-such-aws-config'))
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(import.meta.dirname, 'no-such-aws-credentials'))
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true')
    const target = createS3Target('www-example-com', 'live', process.env)
    const error = (await target.readRecord('manifest').catch((e: unknown) => e)) as Error & { code?: string }
    expect(error.code).toBe('DEPLOY_FAILED')
    expect(error.message).toContain('s3://www-example-com/live')
    expect(error.message).toContain(
      'reading .site-deploy.json: Region is missing (set AWS_REGION, or a region in the profile AWS_PROFILE names in ~/.aws/config)',
    )
  })

  it('fails naming what to set when AWS_REGION is empty (a CI variable that is not defined)', async () => {
    // the SDK takes the empty string as a region: "Region not accepted: region=\"\" is not a valid hostname component."
    vi.stubEnv('AWS_REGION', '')
    const target = createS3Target('www-example-com', 'live', process.env)
    const error = (await target.readRecord('manifest').catch((e: unknown) => e)) as Error & { code?: string }
    expect(error.code).toBe('DEPLOY_FAILED')
    expect(error.message).toContain('(set AWS_REGION, or a region in the profile AWS_PROFILE names in ~/.aws/config)')
  })
})
