// An S3-compatible server (s3rver) on 127.0.0.1, for the deploy tests and the publish bench, with the AWS
// environment that sends the SDK (and so `site deploy` and `site publish`) to it. s3rver checks the access
// key id and does not verify signatures.
import S3rver from 's3rver'

/** Starts s3rver on `port` (a free one by default), keeping its objects under `directory`, with `buckets` made. */
export async function startS3Server({ directory, buckets, port: wanted = 0 }) {
  const server = new S3rver({
    address: '127.0.0.1',
    port: wanted,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const env = {
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  }
  // as a store that goes down: the connections a client keeps open go too
  const close = () => {
    const closed = server.close()
    server.httpServer?.closeAllConnections()
    return closed
  }
  const onRequest = (listener) => {
    server.httpServer.on('request', listener)
    return () => server.httpServer.off('request', listener)
  }
  return { endpoint, env, close, onRequest }
}
