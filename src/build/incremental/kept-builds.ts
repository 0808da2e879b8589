/**
 * Pure: which content-hashed files of earlier builds stay in the output, so
 * that a tab opened on an older build still loads its lazy chunks and its initial data after
 * later deploys. A build counts when it changed content-hashed files: consecutive builds with
 * the same ones (content-only publishes that left navigation alone) are one entry.
 */
import type { StoredBuild } from './store.js'

const sameFiles = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((file, i) => file === b[i])

/**
 * The earlier builds whose files stay beside this build's (`current`, sorted), newest first, at most
 * `keepBuilds - 1` of them, and the files to keep. Example: keepBuilds 3, earlier [B, A] (newest
 * first), current files differ from B's -> earlier [B, A], keep B's and A's files that `current` lacks;
 * current equal to B's -> earlier [A] (this build takes B's place).
 */
export function planKeptBuilds(input: {
  current: readonly string[]
  earlier: readonly StoredBuild[]
  keepBuilds: number
}): { earlier: StoredBuild[]; keep: string[] } {
  const { current, keepBuilds } = input
  const earlier = input.earlier.filter((build, i) => !(i === 0 && sameFiles(build.files, current)))
  const kept = earlier.slice(0, Math.max(0, keepBuilds - 1))
  const mine = new Set(current)
  const keep = new Set(kept.flatMap((build) => build.files.filter((file) => !mine.has(file))))
  return { earlier: kept, keep: [...keep].sort() }
}
