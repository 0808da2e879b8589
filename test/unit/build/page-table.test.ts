import { describe, expect, it } from 'vitest'
import { PageTable, StringPool } from '../../../src/build/page-table.js'
import { MAX_FILE_REFS_PER_PAGE } from '../../../src/shared/constants.js'

const about = {
  path: '/about',
  locale: 'en',
  uid: 2,
  noIndex: false,
  alternates: [
    { hreflang: 'en-US', path: '/about' },
    { hreflang: 'pl-PL', path: '/pl/o-nas' },
  ],
  links: { nav: ['/', '/pl/o-nas'], content: ['/contact'] },
  fileRefs: ['/fileadmin/a.jpg', 'https://cdn.example/b.png'],
}
const hidden = {
  path: '/hidden',
  locale: 'en',
  noIndex: true,
  alternates: [],
  canonical: 'https://www.example.com/about',
  links: { nav: ['/'], content: [] },
}

describe('page table', () => {
  it('hands back what was added, in order, with every path as the pool string', () => {
    const pool = new StringPool()
    const table = PageTable.of([about, hidden], pool)
    expect(table.size).toBe(2)
    expect([...table.paths()]).toEqual(['/about', '/hidden'])
    expect([...table]).toEqual([
      { ...about, files: ['', ''] },
      { ...hidden, files: ['', ''] },
    ])
    expect(table.get('/about')!.links.nav[1]).toBe(pool.intern('/pl/o-nas'))
    expect(table.get('/nowhere')).toBeUndefined()
    expect(table.uidOf('/about')).toBe(2)
    expect(table.uidOf('/hidden')).toBeUndefined()
    const polish = { ...about, path: '/pl/o-nas', locale: 'pl' }
    const three = PageTable.of([about, hidden, polish], new StringPool())
    expect(three.pathsOfUids(new Set([2]))).toEqual(['/about', '/pl/o-nas'])
    expect(three.pathsOfUids(new Set([7]))).toEqual([])
    expect(three.pathsOfUids(new Set())).toEqual([])
  })

  it('gives sitemap facts without links, and file hashes once they are set', () => {
    const table = PageTable.of([about, hidden])
    expect([...table.facts()]).toEqual([
      { path: '/about', locale: 'en', noIndex: false, alternates: about.alternates },
      { path: '/hidden', locale: 'en', noIndex: true, alternates: [], canonical: hidden.canonical },
    ])
    expect(table.fileHash('/about', 0)).toBeUndefined()
    table.setFiles('/about', ['h', 'p'])
    expect(table.fileHash('/about', 0)).toBe('h')
    expect(table.fileHash('/about', 1)).toBe('p')
    expect(() => table.setFiles('/nowhere', ['h', 'p'])).toThrow('/nowhere')
  })

  it('finds the pages that link to a set of paths, nav and content alike', () => {
    const table = PageTable.of([about, hidden])
    const ids = (...paths: string[]) => new Set(paths.map((path) => table.pool.id(path)))
    expect(table.pathsLinkingTo(ids('/contact'))).toEqual(['/about'])
    expect(table.pathsLinkingTo(ids('/'))).toEqual(['/about', '/hidden'])
    expect(table.pathsLinkingTo(ids('/contact', '/pl/o-nas'))).toEqual(['/about'])
    expect(table.pathsLinkingTo(ids())).toEqual([])
    // an alternate is not a link (/about names itself only as one), nor is a file
    expect(table.pathsLinkingTo(ids('/about'))).toEqual([])
    expect(table.pathsLinkingTo(ids('/fileadmin/a.jpg', 'https://cdn.example/b.png'))).toEqual([])
  })

  it("finds the pages that show a file, and lists a page's files", () => {
    const table = PageTable.of([about, hidden])
    const ids = (...refs: string[]) => new Set(refs.map((ref) => table.pool.id(ref)))
    expect(table.namesAnyFile('/about', ids('https://cdn.example/b.png'))).toBe(true)
    expect(table.namesAnyFile('/about', ids('/contact'))).toBe(false)
    expect(table.namesAnyFile('/hidden', ids('/fileadmin/a.jpg'))).toBe(false)
    expect(table.fileRefsOf('/about')).toEqual(about.fileRefs)
    expect(table.fileRefsOf('/hidden')).toEqual([])
    expect(table.fileRefsOf('/nowhere')).toEqual([])
    const other = { ...hidden, path: '/other', fileRefs: ['/fileadmin/a.jpg', '/fileadmin/c.pdf'] }
    expect(PageTable.of([about, hidden, other]).fileRefs()).toEqual(
      new Set(['/fileadmin/a.jpg', 'https://cdn.example/b.png', '/fileadmin/c.pdf']),
    )
    // a page naming as many files as a row keeps may name more: no list of them all
    const many = Array.from({ length: MAX_FILE_REFS_PER_PAGE }, (_, i) => `/fileadmin/${i}.jpg`)
    expect(PageTable.of([about, { ...other, fileRefs: many }]).fileRefs()).toBeUndefined()
  })

  it('reads one field of a page without making its record', () => {
    const table = PageTable.of([about, hidden])
    expect(table.localeOf('/about')).toBe('en')
    expect(table.localeOf('/nowhere')).toBeUndefined()
    const linksOf = (path: string) => {
      const ids = table.linkIdsOf(path)
      return (
        ids && {
          nav: [...ids.nav].map((id) => table.pool.at(id)),
          content: [...ids.content].map((id) => table.pool.at(id)),
        }
      )
    }
    expect(linksOf('/about')).toEqual(about.links)
    expect(linksOf('/hidden')).toEqual(hidden.links)
    expect(linksOf('/nowhere')).toBeUndefined()
    const named: string[] = []
    table.forEachPathId('/about', (id) => named.push(table.pool.at(id)))
    expect(named).toEqual(['/about', '/pl/o-nas', '/', '/pl/o-nas', '/contact'])
    expect([...table.identities()]).toEqual([
      { path: '/about', locale: 'en', uid: 2 },
      { path: '/hidden', locale: 'en' },
    ])
  })

  it('copies a page from a table over the same pool row to row, whatever was added before it', () => {
    const pool = new StringPool()
    const previous = PageTable.of([about, { ...hidden, files: ['h', 'p'] }], pool)
    const next = new PageTable(pool)
    next.add({ ...about, path: '/new', links: { nav: ['/x', '/y', '/z'], content: [] } })
    expect(next.copyFrom(previous, '/hidden')).toBe(true)
    expect(next.copyFrom(previous, '/about')).toBe(true)
    expect(next.copyFrom(previous, '/nowhere')).toBe(false)
    expect(next.get('/hidden')).toEqual({ ...hidden, files: ['h', 'p'] })
    expect(next.get('/about')).toEqual({ ...about, files: ['', ''] })
    expect(next.get('/new')!.links.nav).toEqual(['/x', '/y', '/z'])
    expect(() => next.copyFrom(previous, '/about')).toThrow('/about')
    expect(() => new PageTable().copyFrom(previous, '/about')).toThrow('same string pool')
  })

  it('copies every page of a table over the same pool in its order, each from the other table when it has it', () => {
    const pool = new StringPool()
    const pl = { ...about, path: '/pl/o-nas', locale: 'pl' }
    const previous = PageTable.of([about, { ...hidden, files: ['h', 'p'] }, pl], pool)
    const rebuilt = PageTable.of([{ ...about, links: { nav: ['/x'], content: [] } }], pool)
    const next = new PageTable(pool)
    expect(next.copyAllFrom(previous, rebuilt)).toEqual(
      new Map([
        ['en', 2],
        ['pl', 1],
      ]),
    )
    expect([...next.paths()]).toEqual(['/about', '/hidden', '/pl/o-nas'])
    expect(next.get('/about')!.links.nav).toEqual(['/x'])
    expect(next.get('/hidden')).toEqual({ ...hidden, files: ['h', 'p'] })
    expect(next.get('/pl/o-nas')).toEqual({ ...pl, files: ['', ''] })
    // a page built again with as many references as before is written over its copy, in place; rows added later go after
    const refitted = {
      ...pl,
      noIndex: true,
      canonical: 'https://www.example.com/x',
      alternates: [
        { hreflang: 'de-DE', path: '/de/x' },
        { hreflang: 'pl-PL', path: '/pl/o-nas' },
      ],
      links: { nav: ['/x', '/y'], content: ['/z'] },
      fileRefs: ['/fileadmin/c.jpg', '/fileadmin/d.jpg'],
    }
    const fitted = new PageTable(pool)
    fitted.copyAllFrom(previous, PageTable.of([{ ...refitted, files: ['h2', 'p2'], linkDigest: 'd2' }], pool))
    expect([...fitted.paths()]).toEqual(['/about', '/hidden', '/pl/o-nas'])
    expect(fitted.get('/pl/o-nas')).toEqual({ ...refitted, files: ['h2', 'p2'], linkDigest: 'd2' })
    expect(fitted.get('/hidden')).toEqual({ ...hidden, files: ['h', 'p'] })
    expect(fitted.get('/about')).toEqual({ ...about, files: ['', ''] })
    expect(previous.get('/pl/o-nas')).toEqual({ ...pl, files: ['', ''] })
    fitted.add({ ...hidden, path: '/later' })
    expect(fitted.get('/later')).toEqual({ ...hidden, path: '/later', files: ['', ''] })
    expect(fitted.get('/hidden')).toEqual({ ...hidden, files: ['h', 'p'] })
    expect(() => new PageTable().copyAllFrom(previous)).toThrow('same string pool')
    expect(() => new PageTable(pool).copyAllFrom(previous, PageTable.of([about]))).toThrow('same string pool')
  })

  it('tells whether another table has a page as the same page linking to the same paths, its text and facts aside', () => {
    const pool = new StringPool()
    const table = PageTable.of([about], pool)
    const other = (record: typeof about) => PageTable.of([record], pool)
    expect(table.sameLinks('/about', other({ ...about, noIndex: true, alternates: [], fileRefs: [] }))).toBe(true)
    expect(table.sameLinks('/about', PageTable.of([about]))).toBe(false) // another pool
    expect(table.sameLinks('/about', other({ ...about, path: '/about2' }))).toBe(false)
    expect(table.sameLinks('/about', other({ ...about, uid: 3 }))).toBe(false)
    expect(table.sameLinks('/about', other({ ...about, locale: 'pl' }))).toBe(false)
    const links = (nav: string[], content: string[]) => other({ ...about, links: { nav, content } })
    expect(table.sameLinks('/about', links(['/', '/pl/o-nas'], ['/contact', '/x']))).toBe(false)
    expect(table.sameLinks('/about', links(['/pl/o-nas', '/'], ['/contact']))).toBe(false)
    // a link moved from the navigation into the content is found otherwise (a broken one fails the build or not)
    expect(table.sameLinks('/about', links(['/'], ['/pl/o-nas', '/contact']))).toBe(false)
  })

  it('tells whether another table has the same pages with the same sitemap facts, links and hashes aside', () => {
    const pool = new StringPool()
    const table = PageTable.of([about, hidden], pool)
    const other = (...records: Array<typeof about | typeof hidden>) => PageTable.of(records, pool)
    expect(table.sameFacts(other(hidden, { ...about, uid: 9, links: { nav: [], content: ['/x'] } }))).toBe(true)
    expect(table.sameFacts(PageTable.of([about, hidden]))).toBe(false) // another pool
    expect(table.sameFacts(other(about))).toBe(false)
    expect(table.sameFacts(other(about, { ...hidden, path: '/hidden2' }))).toBe(false)
    expect(table.sameFacts(other({ ...about, locale: 'pl' }, hidden))).toBe(false)
    expect(table.sameFacts(other({ ...about, noIndex: true }, hidden))).toBe(false)
    expect(table.sameFacts(other(about, { ...hidden, canonical: 'https://www.example.com/' }))).toBe(false)
    expect(table.sameFacts(other({ ...about, alternates: about.alternates.slice(0, 1) }, hidden))).toBe(false)
    const moved = [about.alternates[0]!, { hreflang: 'pl-PL', path: '/pl/o-firmie' }]
    expect(table.sameFacts(other({ ...about, alternates: moved }, hidden))).toBe(false)
    // only the pages named are compared (the others known to be the other table's rows); an unknown one differs
    const noIndexed = other(about, { ...hidden, noIndex: !hidden.noIndex })
    expect(table.sameFacts(noIndexed, ['/about'])).toBe(true)
    expect(table.sameFacts(noIndexed, [hidden.path])).toBe(false)
    expect(table.sameFacts(other(about, hidden), ['/nowhere'])).toBe(false)
    expect(table.sameFacts(other(about), ['/about'])).toBe(false) // not as many pages
  })

  it('grows past its first size and refuses a path twice', () => {
    const table = new PageTable()
    for (let i = 0; i < 1000; i++)
      table.add({ ...about, path: `/p${i}`, uid: i, links: { nav: ['/'], content: [`/p${i + 1}`] } })
    expect(table.get('/p999')).toMatchObject({ uid: 999, links: { content: ['/p1000'] } })
    expect(() => table.add({ ...about, path: '/p5' })).toThrow('/p5')
  })
})
