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
  /** The target's manifest as stored (parsed JSON, untrusted), undefined when it has none. */
  readManifest(): Promise<unknown>
  /**
   * What tells the stored manifest's versions apart without reading it (a file's lstat stamp, an object's ETag),
   * undefined when it has none or the target cannot tell.
   */
  manifestStamp(): Promise<string | undefined>
  upload(file: DeployFile): Promise<void>
  remove(path: string): Promise<void>
  /** After every upload and delete, before the manifest: a target that acts once (a command) acts here. */
  commit(): Promise<void>
  /** Stores the manifest; resolves to the stamp of what it stored (see manifestStamp). */
  writeManifest(json: string): Promise<string | undefined>
  close(): Promise<void>
}

/** The name of a target's manifest, where the target keeps it beside the files. */
export const TARGET_MANIFEST_FILE = '.site-deploy.json'
