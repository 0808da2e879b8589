import { posix } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { filterQuery } from '../../src/api/query.js'
import { classifyLink, isFilePath } from '../../src/shared/links.js'
import {
  fromPayloadUrl,
  getLocaleFromPath,
  normalizePagePath,
  stripLocale,
  toHtmlFile,
  toPayloadFile,
  toPayloadUrl,
  withLocale,
} from '../../src/shared/url.js'

const i18n = { default: 'en', locales: ['en', 'pl', 'de'] }

// Paths built from hostile pieces: dots, encoded slashes, NUL, unicode, long runs.
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '\ud800',
    'a\udfff',
    '\ud83d\ude00',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%2f',
    '%00',
    '\u0000',
    '\\',
    '%5C',
    'über',
    '%C3%BC',
    'pl',
    'de',
    '_site',
    '',
    ' ',
    '%',
    '%zz',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ minLength: 190, maxLength: 260 }),
)
const hostilePath = fc.array(hostileSegment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`)
const anyInput = fc.oneof(hostilePath, fc.string(), fc.anything())

const OUT = '/out'
const insideOut = (relative: string) => {
  const resolved = posix.resolve(OUT, relative)
  return resolved === OUT || resolved.startsWith(`${OUT}/`)
}

describe('path rules under fuzzing', () => {
  it('never throw on any input', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        normalizePagePath(input)
        classifyLink(input, 'https://www.example.com')
        if (typeof input === 'string') {
          getLocaleFromPath(input, i18n)
          stripLocale(input, i18n)
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('map every accepted path to files inside the output folder', () => {
    fc.assert(
      fc.property(hostilePath, (input) => {
        const checked = normalizePagePath(input)
        if (!checked.ok) return
        for (const file of [toHtmlFile(checked.path), toPayloadFile(checked.path)]) {
          expect(insideOut(file)).toBe(true)
          expect(file.split('/')).not.toContain('..')
          expect(file).not.toMatch(/[\u0000\\]/)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('are idempotent, and a link and its file always agree', () => {
    fc.assert(
      fc.property(hostilePath, (input) => {
        const checked = normalizePagePath(input)
        if (!checked.ok) return
        expect(normalizePagePath(checked.path)).toEqual(checked)
        // A link to the page classifies to the same path, whose file is the page's file.
        const link = classifyLink(checked.path)
        expect(link).toMatchObject({ type: isFilePath(checked.path) ? 'file' : 'page', path: checked.path })
        if (link.type === 'page' || link.type === 'file') expect(toHtmlFile(link.path)).toBe(toHtmlFile(checked.path))
        // The payload URL round-trips to the same page.
        expect(fromPayloadUrl(toPayloadUrl(checked.path))).toBe(checked.path)
        // As a static host decodes a URL before looking up the file.
        const decoded = decodeURIComponent(checked.path)
        expect(toHtmlFile(checked.path)).toBe(posix.join(decoded.slice(1), 'index.html'))
      }),
      { numRuns: 3000 },
    )
  })

  it('keep locale helpers consistent', () => {
    fc.assert(
      fc.property(fc.constantFrom('en', 'pl', 'de'), hostilePath, (locale, input) => {
        const checked = normalizePagePath(input)
        if (!checked.ok || getLocaleFromPath(checked.path, i18n) !== 'en' || checked.path.startsWith('/en')) return
        const localized = withLocale(checked.path, locale, i18n)
        expect(getLocaleFromPath(localized, i18n)).toBe(locale)
        expect(stripLocale(localized, i18n)).toBe(checked.path)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('query filtering under fuzzing', () => {
  const key = fc.oneof(fc.constantFrom('type', 'cHash', 'utm_source', 'x[y]'), fc.string({ maxLength: 6 }))
  const query = fc.array(fc.tuple(key, fc.string({ maxLength: 6 })), { maxLength: 5 })

  it('keeps exactly the allowed keys plus type, and never throws', () => {
    fc.assert(
      fc.property(hostilePath, query, fc.array(key, { maxLength: 3 }), (path, pairs, allowed) => {
        const search = new URLSearchParams(pairs).toString()
        const bare = path.replace(/[?#]/g, '')
        const input = search ? `${bare}?${search}` : bare
        const out = filterQuery(input, allowed)
        const at = out.indexOf('?')
        const kept = new URLSearchParams(at >= 0 ? out.slice(at + 1) : '')
        for (const k of kept.keys()) expect(k === 'type' || allowed.includes(k)).toBe(true)
        for (const [k] of pairs) if (k === 'type' || allowed.includes(k)) expect(kept.has(k)).toBe(true)
        expect(filterQuery(input, true)).toBe(input)
        const none = filterQuery(input, false)
        const onlyType = new URLSearchParams(none.includes('?') ? none.slice(none.indexOf('?') + 1) : '')
        expect([...new Set(onlyType.keys())]).toEqual(pairs.some(([k]) => k === 'type') ? ['type'] : [])
      }),
      { numRuns: 2000 },
    )
  })
})
