/**
 * Pure: what a deploy target string names. `dir:PATH` (a folder), `s3://BUCKET/PREFIX` (a bucket and
 * a key prefix, possibly empty) or `command:CMD` (a shell command). Config validation and the CLI read
 * targets through this one parser.
 */

export type DeploySpec =
  | { kind: 'dir'; path: string }
  | { kind: 's3'; bucket: string; prefix: string }
  | { kind: 'command'; command: string }

/** S3 bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const CONTROL_RE = /[\u0000-\u001f\u007f]/

/** The target, or why the string names none (for an error message that quotes the string). */
export function parseDeploySpec(text: string): DeploySpec | { error: string } {
  if (CONTROL_RE.test(text)) return { error: 'a deploy target may not hold control characters' }
  if (text.startsWith('dir:')) {
    const path = text.slice('dir:'.length)
    // a shell expands ~ only at the start of a word: `--deploy dir:~/www` would make a folder named ~ here
    if (path.startsWith('~'))
      return { error: "'~' is not expanded after 'dir:': write the folder's full path ($HOME/…)" }
    return path ? { kind: 'dir', path } : { error: "expected a folder after 'dir:'" }
  }
  if (text.startsWith('command:')) {
    const command = text.slice('command:'.length).trim()
    return command ? { kind: 'command', command } : { error: "expected a command after 'command:'" }
  }
  if (text.startsWith('s3://')) {
    const [bucket = '', ...rest] = text.slice('s3://'.length).split('/')
    if (!BUCKET_RE.test(bucket)) return { error: `'${bucket}' is not an S3 bucket name` }
    const prefix = rest.filter(Boolean).join('/')
    if (prefix.split('/').some((part) => part === '.' || part === '..'))
      return { error: "an S3 prefix may not hold '.' or '..' segments" }
    return { kind: 's3', bucket, prefix }
  }
  return { error: "expected 'dir:PATH', 's3://BUCKET/PREFIX' or 'command:CMD'" }
}
