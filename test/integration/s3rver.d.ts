/** The part of s3rver (an S3-compatible server for tests, no types of its own) the deploy tests use. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string
    port?: number
    silent?: boolean
    directory?: string
    configureBuckets?: Array<{ name: string; configs: unknown[] }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
