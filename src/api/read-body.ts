/** A body's bytes as UTF-8 text, a BOM dropped (as `body.text()` does). */
export const decodeBody = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)
