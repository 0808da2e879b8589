/**
 * Resolves on the first SIGINT or SIGTERM, so a server command can close cleanly. Asked before the command
 * prints that it is ready: a supervisor may send its stop as soon as it reads that line, and a signal with
 * no listener ends the process by its default action, with nothing closed.
 */
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
