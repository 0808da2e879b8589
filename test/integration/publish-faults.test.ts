/**
 * `site publish` deploying to an S3-compatible server (s3rver on 127.0.0.1) that goes away and comes back, and a
 * publisher killed (-9) while it deploys: once both are back, the bucket holds exactly the output (and the files
 * its manifest keeps for open tabs), no pending record, and every acknowledged edit.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { TARGET_RECORD_FILES } from '../../src/deploy/targets/types.js'
import { type S3Server, startS3Server } from '../shared/s3-server.mjs'
import { BASE_URL, diffTrees, readTree } from './build-helpers.js'
import { type RunningPublisher, settled, startPublisher, waitUntil } from './publish-helpers.js'

const BUCKET = 'site-live'
const PREFIX = 'www'
let api: DemoApi
let dir: string
let configFile: string
let out: string
let s3: S3Server | undefined
let port = 0
const env = { ...process.env }
const running: RunningPublisher[] = []

const args = () => ['--config', configFile, '--api', api.url, '--out', out, '--state', join(dir, 'state')]
const startS3 = async () => {
  s3 = await startS3Server({ directory: join(dir, 's3'), buckets: [BUCKET], port })
  port = Number(new URL(s3.endpoint).port)
  Object.assign(process.env, s3.env)
}
const stopS3 = async () => {
  await s3?.close()
  s3 = undefined
}

/** Every object under the prefix, path -> bytes. */
async function readBucket(): Promise<Map<string, Buffer>> {
  const client = new S3Client({ forcePathStyle: true })
  try {
    const objects = new Map<string, Buffer>()
    let token: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${PREFIX}/`, ContinuationToken: token }),
      )
      for (const { Key } of page.Contents ?? []) {
        const body = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key }))
        objects.set(Key!.slice(PREFIX.length + 1), Buffer.from(await body.Body!.transformToByteArray()))
      }
      token = page.NextContinuationToken
    } while (token)
    return objects
  } finally {
    client.destroy()
  }
}

/** The bucket holds the output, and beside it only its manifest and the files the manifest keeps as gone. */
async function expectConverged() {
  const bucket = await readBucket()
  expect([...bucket.keys()]).not.toContain(TARGET_RECORD_FILES.pending)
  const manifest = JSON.parse(bucket.get(TARGET_RECORD_FILES.manifest)!.toString()) as { gone: Record<string, number> }
  bucket.delete(TARGET_RECORD_FILES.manifest)
  expect(diffTrees(await readTree(out), bucket)).toEqual(Object.keys(manifest.gone).sort())
}

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'site-publish-faults-'))
  out = join(dir, 'out')
  configFile = join(dir, 'site.config.json')
  const publish = { deploy: `s3://${BUCKET}/${PREFIX}`, quietMs: 100, maxWaitMs: 1000 }
  await writeFile(configFile, JSON.stringify({ baseUrl: BASE_URL, publish }))
  await startS3()
})

afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL')
  process.env = env
  await stopS3()
  await api?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('site publish to S3, through faults', () => {
  it('completes after a restart the deploy a kill -9 cut, with the target down meanwhile', async () => {
    const first = await startPublisher(args())
    running.push(first)
    // the reconcile at start has built the site; its deploy has begun: the store goes away half way
    await waitUntil(
      async () => (await fetch(`${s3!.endpoint}/${BUCKET}/${PREFIX}/${TARGET_RECORD_FILES.pending}`)).ok,
      'the deploy to begin',
      60_000,
    )
    await stopS3()
    await waitUntil(async () => (await first.status()).publishes[0]?.ok === false, 'the deploy to fail', 30_000)
    first.child.kill('SIGKILL')
    await first.done
    await startS3()

    const second = await startPublisher(args())
    running.push(second)
    // no event waits (a reconcile's is not journaled): the start itself brings the target up to the output
    await waitUntil(settled(second), 'the restarted publisher to deploy', 30_000)
    await expectConverged()
  }, 60_000)
})
