/** What every deploy target does; deploy.ts calls them in the order of its plan. */

/** A file of the output as a target receives it. */
export interface DeployFile {
  /** Relative path in the output (checked: no `..`, no absolute path, no control character). */
  path: string
  /** Where it is on disk. */
  source: string
  contentType: string
  /** `Cache-Control` for hosts that store it with the file (S3). */
  cacheControl: string
}

export interface DeployTarget {
  /** How logs and errors name it: `dir:/srv/www`, `s3://bucket/prefix`, `command:…`. */
  readonly name: string
  /**
   * One of the target's own records as stored (untrusted text), undefined when it has none. Here and below, `signal`
   * stops a target that waits on a host (S3) as it does upload's.
   */
  readRecord(record: TargetRecord, signal?: AbortSignal): Promise<string | undefined>
  /**
   * What tells the stored manifest's versions apart without reading it (a file's lstat stamp, an object's ETag),
   * undefined when it has none or the target cannot tell.
   */
  manifestStamp(signal?: AbortSignal): Promise<string | undefined>
  /**
   * The paths the target holds, where it can list them cheaply (a bucket): a file its manifest names that it no longer
   * holds (removed by hand, by a lifecycle rule) is sent again. Undefined when it cannot tell.
   */
  heldPaths?(signal?: AbortSignal): Promise<Set<string> | undefined>
  /**
   * Keeps other deployers off the target until the release it resolves to is called, where the target can tell
   * (a folder: a lock file in it naming this process); a deployer that holds it is refused, one that was killed is
   * taken over. Two deploys at once would each plan from the same manifest and leave one's latest.json under the
   * other's manifest.
   */
  hold?(): Promise<() => Promise<void>>
  /** `signal` stops what it does when the deploy is stopped (its time is up); it then rejects. */
  upload(file: DeployFile, signal?: AbortSignal): Promise<void>
  remove(path: string, signal?: AbortSignal): Promise<void>
  /** After every upload and delete, before the manifest: a target that acts once (a command) acts here. */
  commit(signal?: AbortSignal): Promise<void>
  /** Stores one of its records; resolves to the stamp of what it stored (see manifestStamp). */
  writeRecord(record: TargetRecord, json: string, signal?: AbortSignal): Promise<string | undefined>
  /** Removes one of its records; a record it does not have is not an error. */
  removeRecord(record: TargetRecord, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

/**
 * The records a target keeps of its deploys (plan.ts): the manifest, and while a deploy changes the target, the
 * paths it may change (pending), removed once the manifest records them.
 */
export type TargetRecord = 'manifest' | 'pending'

/** The names of a target's records, where the target keeps them beside the files. */
export const TARGET_RECORD_FILES: Record<TargetRecord, string> = {
  manifest: '.site-deploy.json',
  pending: '.site-deploy-pending.json',
}

/** The lock a folder target holds while a deploy changes it (DeployTarget.hold), beside its records. */
export const TARGET_LOCK_FILE = '.site-deploy.lock'

/** Another site of the config: its first host name and its output folder, which no deploy of this site may touch. */
export interface OtherSite {
  host: string
  outDir: string
}
