/**
 * `s3://BUCKET/PREFIX`: an S3 bucket, or any S3-compatible store. Endpoint, region and credentials come
 * from the usual AWS environment variables and config files (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`,
 * `AWS_PROFILE`...); with a custom endpoint, buckets are addressed by path. Each file is one PUT, or a
 * large one a multipart upload (either way the object is whole or absent, never half), with its content
 * type and cache policy; the manifest is `PREFIX/.site-deploy.json` in the bucket.
 */
import { type FileHandle, open } from 'node:fs/promises'
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { errors } from '../../errors.js'
import {
  DEPLOY_RECORD_MAX_BYTES,
  DEPLOY_S3_IDLE_TIMEOUT_MS,
  DEPLOY_S3_MULTIPART_BYTES,
  DEPLOY_S3_PART_BYTES,
} from '../../shared/constants.js'
import { type DeployFile, type DeployTarget, TARGET_RECORD_FILES } from './types.js'

/** S3's most parts in one multipart upload. */
const S3_MAX_PARTS = 10_000

export interface S3Tuning {
  /** How long a request may go without a byte moving before it fails. */
  idleTimeoutMs: number
  /** Files larger than this go in parts. */
  multipartBytes: number
  partBytes: number
  /** A record larger than this is not read: it counts as a corrupt one (the deploy sends all). */
  recordMaxBytes: number
}

const DEFAULT_TUNING: S3Tuning = {
  idleTimeoutMs: DEPLOY_S3_IDLE_TIMEOUT_MS,
  multipartBytes: DEPLOY_S3_MULTIPART_BYTES,
  partBytes: DEPLOY_S3_PART_BYTES,
  recordMaxBytes: DEPLOY_RECORD_MAX_BYTES,
}

/** The store's URL when it is not AWS's own. */
const customEndpointOf = (env: NodeJS.ProcessEnv): string | undefined => env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL
const hasCustomEndpoint = (env: NodeJS.ProcessEnv): boolean => Boolean(customEndpointOf(env))

const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode

/** `length` bytes of the file from `position`; fails when the file has fewer (it shrank since its size was read). */
async function readPart(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const part = Buffer.allocUnsafe(length)
  for (let filled = 0; filled < length; ) {
    const { bytesRead } = await handle.read(part, filled, length - filled, position + filled)
    if (bytesRead === 0) throw new Error('the file shrank while it was sent')
    filled += bytesRead
  }
  return part
}

/** The key is absent; a bucket that does not exist (a misspelled name) answers 404 too, and is an error. */
const isNotFound = (error: unknown): boolean => {
  const { name } = error as { name?: string }
  return name === 'NoSuchKey' || (statusOf(error) === 404 && name !== 'NoSuchBucket')
}

/** A key S3 does not hold is answered 403 AccessDenied, not 404, to credentials that may not list the bucket. */
const LIST_BUCKET_HINT =
  ' (S3 answers so for a key it does not hold when the credentials lack s3:ListBucket on the bucket)'
const isAccessDenied = (error: unknown): boolean =>
  statusOf(error) === 403 && (error as { name?: string }).name === 'AccessDenied'

/**
 * What the SDK's own words leave out. With no region, or an empty one (`AWS_REGION` from a CI variable that is not
 * defined), "Region is missing" and "Region not accepted: region=\"\" …" name neither the variable nor where else a
 * region may come from. A timeout names no host: a store of one's own is named (AWS's is the bucket's).
 */
function hintOf(error: unknown, env: NodeJS.ProcessEnv): string {
  const { name, message } = error as Error
  if (/^Region is missing$|^Region not accepted: region="" /.test(message))
    return ' (set AWS_REGION, or a region in the profile AWS_PROFILE names in ~/.aws/config)'
  const endpoint = customEndpointOf(env)
  // the host only: an endpoint's URL may hold a user and password
  return name === 'TimeoutError' && endpoint && URL.canParse(endpoint)
    ? ` (no answer from ${new URL(endpoint).host})`
    : ''
}

export function createS3Target(
  bucket: string,
  prefix: string,
  env: NodeJS.ProcessEnv = process.env,
  tuning: Partial<S3Tuning> = {},
): DeployTarget {
  const { idleTimeoutMs, multipartBytes, partBytes, recordMaxBytes } = { ...DEFAULT_TUNING, ...tuning }
  const name = `s3://${bucket}/${prefix}`
  const client = new S3Client({
    forcePathStyle: hasCustomEndpoint(env),
    // The SDK waits for ever on a store that takes a connection and never answers (stopped, or packets dropped):
    // a deploy, and the publisher running it, would hang with no error. A silence this long fails the request
    // (retried by the SDK, then the deploy fails and the publisher tries again); a slow upload that moves is not cut.
    requestHandler: { connectionTimeout: idleTimeoutMs, socketTimeout: idleTimeoutMs },
    // Without these, SDK v3 streams uploads with checksum trailers (aws-chunked), which S3-compatible
    // stores that predate them keep as the object's bytes; a checksum is sent when an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const keyOf = (path: string) => (prefix ? `${prefix}/${path}` : path)
  const fail =
    (what: string, hint = '') =>
    (error: unknown) => {
      throw errors.deployFailed(name, `${what}: ${(error as Error).message}${hintOf(error, env)}${hint}`, error)
    }
  /** A file in parts, read one at a time; S3 makes the object of them only once the last is in. */
  const sendInParts = async (handle: FileHandle, size: number, file: DeployFile, signal?: AbortSignal) => {
    const object = { Bucket: bucket, Key: keyOf(file.path) }
    const started = await client.send(
      new CreateMultipartUploadCommand({ ...object, ContentType: file.contentType, CacheControl: file.cacheControl }),
      { abortSignal: signal },
    )
    const upload = { ...object, UploadId: started.UploadId }
    const partSize = Math.max(partBytes, Math.ceil(size / S3_MAX_PARTS))
    try {
      const parts: CompletedPart[] = []
      for (let position = 0; position < size; position += partSize) {
        const PartNumber = parts.length + 1
        const Body = await readPart(handle, position, Math.min(partSize, size - position))
        const sent = await client.send(new UploadPartCommand({ ...upload, PartNumber, Body }), { abortSignal: signal })
        parts.push({ PartNumber, ETag: sent.ETag })
      }
      await client.send(new CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts } }), {
        abortSignal: signal,
      })
    } catch (error) {
      // the parts sent are kept, and billed, until the upload is completed or aborted
      await client.send(new AbortMultipartUploadCommand(upload)).catch(() => undefined)
      throw error
    }
  }
  const remove = async (path: string, signal?: AbortSignal) => {
    await client
      .send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(path) }), { abortSignal: signal })
      .catch(fail(`deleting ${path}`))
  }
  return {
    name,
    async readRecord(record, signal) {
      const file = TARGET_RECORD_FILES[record]
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(file) }), {
          abortSignal: signal,
        })
        // as a folder target's: a record no deploy writes that large (anyone may have put it there) is not read
        // whole into memory, on every deploy, to fail there
        if ((answer.ContentLength ?? 0) > recordMaxBytes) {
          ;(answer.Body as { destroy?: () => void } | undefined)?.destroy?.()
          return ''
        }
        return (await answer.Body?.transformToString('utf-8')) ?? ''
      } catch (error) {
        if (isNotFound(error)) return undefined
        // the pending record is absent between deploys: without s3:ListBucket, reading it is denied
        return fail(`reading ${file}`, isAccessDenied(error) ? LIST_BUCKET_HINT : '')(error)
      }
    },
    async heldPaths(signal) {
      const start = prefix ? `${prefix}/` : ''
      const held = new Set<string>()
      let token: string | undefined
      do {
        const page = await client
          .send(new ListObjectsV2Command({ Bucket: bucket, Prefix: start, ContinuationToken: token }), {
            abortSignal: signal,
          })
          .catch((error: unknown) => {
            // credentials without s3:ListBucket: the manifest is all there is to go by
            if (statusOf(error) === 403) return undefined
            return fail('listing the bucket')(error)
          })
        if (!page) return undefined
        for (const object of page.Contents ?? []) if (object.Key) held.add(object.Key.slice(start.length))
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return held
    },
    async manifestStamp(signal) {
      // an error here only means the manifest is read again, where it is reported
      const head = await client
        .send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(TARGET_RECORD_FILES.manifest) }), {
          abortSignal: signal,
        })
        .catch(() => undefined)
      return head?.ETag
    },
    async upload(file, signal) {
      // a file gone from the output since the plan (a build swapped it meanwhile) fails the deploy, as a copy would;
      // one open stays with the file it opened, whatever a build renames over its path meanwhile
      const handle = await open(file.source, 'r').catch(fail(`reading ${file.path}`))
      try {
        const { size } = await handle.stat()
        if (size > multipartBytes)
          return await sendInParts(handle, size, file, signal).catch(fail(`uploading ${file.path}`))
        const body = await handle.readFile().catch(fail(`reading ${file.path}`))
        await client
          .send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: keyOf(file.path),
              Body: body,
              ContentType: file.contentType,
              CacheControl: file.cacheControl,
            }),
            { abortSignal: signal },
          )
          .catch(fail(`uploading ${file.path}`))
      } finally {
        await handle.close()
      }
    },
    remove,
    commit: async () => {},
    async writeRecord(record, json, signal) {
      const file = TARGET_RECORD_FILES[record]
      const put = await client
        .send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(file),
            Body: json,
            ContentType: 'application/json; charset=utf-8',
            CacheControl: 'no-cache',
          }),
          { abortSignal: signal },
        )
        .catch(fail(`writing ${file}`))
      return put.ETag
    },
    removeRecord: (record, signal) => remove(TARGET_RECORD_FILES[record], signal),
    close: async () => client.destroy(),
  }
}
