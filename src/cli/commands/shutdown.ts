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

/** Exit codes of a build or deploy stopped by a signal: 128 + the signal's number, as shells report it. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES
/** How long a second signal's default action is given before the process exits by other means. */
const SECOND_SIGNAL_GRACE_MS = 1_000

/**
 * Ends the process at once by the signal's default action. process.exit() would first stop the build's
 * worker thread, which waits for its file-system requests: one blocked in the thread pool (a read
 * that never returns) would hold the process forever. The next build removes what is left.
 */
function exitBySignal(signal: StopSignal): void {
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
  // should anything still catch it, end the process all the same
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), SECOND_SIGNAL_GRACE_MS)
}

/**
 * The first SIGINT or SIGTERM stops the build or deploy (a build removes its temporary folder) and it rejects;
 * a second one ends the process at once.
 */
export function onStopSignals(controller: AbortController): () => void {
  const stop = (signal: StopSignal) => {
    if (controller.signal.aborted) return exitBySignal(signal)
    controller.abort(signal)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  return () => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}
