export interface S3Server {
  /** `http://127.0.0.1:PORT`; an object is at `${endpoint}/${bucket}/${key}`. */
  endpoint: string
  /** The AWS variables that point the SDK at this server, with the credentials it accepts. */
  env: Record<'AWS_ENDPOINT_URL_S3' | 'AWS_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY', string>
  /** Stops it, dropping the connections clients keep open (a store that went down). */
  close(): Promise<void>
  /** Calls `listener` with each request the server takes (what a test checks was sent); returns its remover. */
  onRequest(listener: (request: import('node:http').IncomingMessage) => void): () => void
}

/**
 * Starts s3rver on 127.0.0.1, on `port` (a free one by default: give the port of one that was closed to start it
 * again), keeping its objects under `directory`, with `buckets` made.
 */
export function startS3Server(options: { directory: string; buckets: string[]; port?: number }): Promise<S3Server>
