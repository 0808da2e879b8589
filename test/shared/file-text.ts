/** A file's contents as a render job hands them over (text, or UTF-8 bytes), as text. */
export const textOf = (contents: string | Uint8Array | undefined): string =>
  typeof contents === 'string' ? contents : Buffer.from(contents ?? []).toString('utf8')
