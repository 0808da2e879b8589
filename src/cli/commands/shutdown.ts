/** Resolves on the first SIGINT or SIGTERM, so a server command can close cleanly. */
export function waitForShutdown(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (signal: NodeJS.Signals) => {
      process.off('SIGINT', done)
      process.off('SIGTERM', done)
      resolve(signal)
    }
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
}
