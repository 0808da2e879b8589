/**
 * Every relative link of README.md and docs/*.md reaches a file the npm package ships, and every anchor a heading of
 * that file: a site project reads these docs from node_modules, where a file left out of `files` is a dead link.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../../..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const docs = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
]

/** What npm packs: package.json's `files` (a folder as `dir/`), and the files it always adds. */
const files: string[] = JSON.parse(read('package.json')).files
const shipped = (path: string) =>
  ['README.md', 'LICENSE', 'package.json'].includes(path) ||
  files.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry))

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated heading gets -1, -2, …). */
function anchorsOf(text: string): Set<string> {
  const count = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-')
    const seen = count.get(slug) ?? 0
    count.set(slug, seen + 1)
    anchors.add(seen ? `${slug}-${seen}` : slug)
  }
  return anchors
}

describe('the docs’ relative links', () => {
  it.each(docs)('%s links only to shipped files and headings that exist', (doc) => {
    const dead: string[] = []
    for (const [, href] of withoutCode(read(doc)).matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href!)) continue
      const [path = '', anchor] = href!.split('#')
      const target = path ? join(dirname(doc), path) : doc
      if (!shipped(target)) dead.push(`${href} (${target} is not in the package)`)
      else if (anchor && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor))
        dead.push(`${href} (no such heading)`)
    }
    expect(dead).toEqual([])
  })
})
