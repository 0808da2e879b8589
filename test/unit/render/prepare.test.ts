import { describe, expect, it } from 'vitest'
import { prepareInitialData, preparePage } from '../../../src/render/prepare.js'
import { MAX_RICH_TEXT_DEPTH, sanitizeRichText } from '../../../src/render/sanitize.js'
import { readJson } from './helpers.js'

const page = (raw: unknown) => {
  const result = preparePage(raw)
  if (!result.page) throw new Error(`no page: ${result.problems.join('; ')}`)
  return { ...result, page: result.page }
}

/** `value` with every object and list in it frozen: changing any of it throws (test files are modules, strict). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item)
    Object.freeze(value)
  }
  return value
}

describe('preparePage on the contract fixtures', () => {
  it.each([
    'contract/nuxt-typo3-main/page.json',
    'contract/nuxt-typo3-main/en-page.json',
    'contract/nuxt-typo3-main/initialData.json',
  ])('never changes the API data it is given, and gives what it gives for a copy of it: %s', (file) => {
    const prepare = (raw: unknown) => (file.endsWith('initialData.json') ? prepareInitialData(raw) : preparePage(raw))
    const frozen = deepFreeze(readJson(file))
    expect(prepare(frozen)).toEqual(prepare(readJson(file)))
    expect(JSON.stringify(prepare(frozen))).toBe(JSON.stringify(prepare(readJson(file))))
  })

  it('gives the data back as a copy of its own, keys in their order, never changing what it was given', () => {
    const gallery = { rows: [{ columns: [{ publicUrl: '/a.jpg' }] }] }
    const unsafe = { header: 'x', headerLink: { href: 'javascript:alert(1)' }, subheader: 'y' }
    const raw = deepFreeze({
      id: 1,
      content: {
        colPos0: [
          { id: 2, type: 'image', content: { gallery } },
          { id: 3, type: 'header', content: unsafe },
        ],
      },
    })
    const { page: prepared, problems } = page(raw)
    expect(prepared.content.colPos0?.[0]?.content.gallery).toEqual(gallery)
    expect(prepared.content.colPos0?.[0]?.content.gallery).not.toBe(gallery)
    const header = prepared.content.colPos0?.[1]?.content
    expect(Object.keys(header ?? {})).toEqual(['header', 'headerLink', 'subheader'])
    expect(header?.headerLink).toBe('')
    expect(problems.map((problem) => problem.kind)).toEqual(['UNSAFE_LINK'])
  })

  it.each(['contract/nuxt-typo3-main/page.json', 'contract/nuxt-typo3-main/en-page.json'])(
    '%s passes unchanged in shape and without problems',
    (file) => {
      const raw = readJson(file) as { content: { colPos0: unknown[] }; meta: { title: string } }
      const { page: prepared, problems } = page(raw)
      expect(problems).toEqual([])
      expect(prepared.content.colPos0).toHaveLength(raw.content.colPos0.length)
      expect(prepared.meta.title).toBe(raw.meta.title)
    },
  )

  it('keeps plain text as it is (React escapes it at render)', () => {
    const { page: prepared } = page({
      id: 1,
      meta: { title: 'Tom & Jerry <3' },
      content: { colPos0: [{ id: 2, type: 'header', content: { header: 'A < B & "C"' } }] },
    })
    expect(prepared.meta.title).toBe('Tom & Jerry <3')
    expect(prepared.content.colPos0?.[0]?.content.header).toBe('A < B & "C"')
  })

  it('drops the characters HTML forbids (controls, noncharacters) from every text, keeps tabs, newlines, emoji', () => {
    // Each is a "Forbidden code point" error of the Nu checker in the page, wherever it lands (head, body, boot JSON).
    const bad = '\u0001\u0007\u000b\u007f\u0085\u009f\ufdd0\ufffe\u{1fffe}\u{10ffff}'
    const raw = deepFreeze({
      id: 1,
      type: `Standard${bad}`,
      meta: { title: `T${bad}\u202eRTL\u202c 😀 ]]> </script>`, description: `a\tb\nc${bad}` },
      breadcrumbs: [{ title: `Home${bad}`, link: '/' }],
      contextMenu: { iconButtonsText: `Icons${bad}` },
      content: { colPos0: [{ id: 2, type: 'header', content: { header: `H${bad}`, tags: [`x${bad}`] } }] },
    })
    const { page: prepared } = page(raw)
    expect(prepared.type).toBe('Standard')
    expect(prepared.meta.title).toBe('T\u202eRTL\u202c 😀 ]]> </script>')
    expect(prepared.meta.description).toBe('a\tb\nc')
    expect(prepared.breadcrumbs?.[0]?.title).toBe('Home')
    expect(prepared.contextMenu?.iconButtonsText).toBe('Icons')
    expect(prepared.content.colPos0?.[0]?.content).toMatchObject({ header: 'H', tags: ['x'] })
    const { data } = prepareInitialData(deepFreeze({ navigation: [{ title: `Nav${bad}`, link: '/' }], note: bad }))
    expect([data.navigation[0]?.title, data.note]).toEqual(['Nav', ''])
  })

  it('returns no page for values that are not pages', () => {
    expect(preparePage(null).page).toBeNull()
    expect(preparePage('<html>Not found</html>').page).toBeNull()
    expect(preparePage({ error: 'Not found' })).toEqual({
      page: null,
      problems: [{ kind: 'INVALID_DATA', message: 'page data has no numeric id' }],
    })
  })

  it('cuts a long key or element type the API sends to 80 characters where a message names it', () => {
    const long = 'k'.repeat(50_000)
    const { problems } = page({
      id: 1,
      content: {
        [long]: [],
        colPos0: [
          { id: 2, type: long, content: 5 },
          { id: 3, type: 'text', content: { [long]: { link: 'javascript:x' } } },
        ],
      },
    })
    const cut = `${'k'.repeat(80)}…`
    expect(problems.map((p) => p.message)).toEqual([
      `page 1: content.${cut}: not a column name (colPos<n>), dropped`,
      `page 1: content.colPos0[0] (id 2, ${cut}): content is number, used {}`,
      `page 1: content.colPos0[1] (id 3, text).${cut}.link: unsafe link "javascript:x" removed`,
    ])
  })

  it('says when a redirect record has no target, rather than only that it lacks a page id', () => {
    const messages = ['', 0, null, ['/a']].map(
      (redirectUrl) => preparePage({ redirectUrl, statusCode: 301 }).problems[0]?.message,
    )
    expect(messages).toEqual([
      'redirectUrl is "", not a URL to redirect to, and page data has no numeric id',
      'redirectUrl is number, not a URL to redirect to, and page data has no numeric id',
      'redirectUrl is null, not a URL to redirect to, and page data has no numeric id',
      'redirectUrl is a list, not a URL to redirect to, and page data has no numeric id',
    ])
  })
})

describe('sanitisation of rich text and links', () => {
  const { page: hostile, problems } = page(readJson('hostile/page-hostile.json'))
  const [text, html, menu, textpic, uploads] = hostile.content.colPos0 ?? []

  it('strips scripts, styles, frames, event handlers and unsafe schemes from bodytext', () => {
    const body = String(text?.content.bodytext)
    expect(body).not.toMatch(/<script|<style|<iframe|onclick|onerror|javascript:|data:|style=/i)
    expect(body).toContain('Hi')
    expect(body).toContain('<a href="https://ok.example/" target="_blank" rel="noopener">ok link</a>')
    expect(body).not.toContain('__SITE_BOOT__')
    expect(body).toContain('<h2>Rich h1</h2>')
    expect(String(html?.content.bodytext)).toBe('<div><b>kept</b></div>')
  })

  it('removes unsafe links from headerLink, menus, files and the meta block', () => {
    expect(text?.content.headerLink).toBe('')
    expect((menu!.content.menu as Array<{ title: string; link: string }>).map((e) => [e.title, e.link])).toEqual([
      ['Good', '/good'],
      ['Bad', ''],
      ['Data', ''],
    ])
    expect(hostile.meta.canonical).toBe('')
    expect(hostile.meta.ogImage).toBeNull()
    expect(hostile.meta.twitterImage).toBeNull()
    expect((uploads!.content.media as unknown[]).length).toBe(1)
    const rows = (
      textpic!.content.gallery as { rows: Record<string, { columns: Record<string, { publicUrl: string }> }> }
    ).rows
    expect(rows['1']?.columns['1']?.publicUrl).toBe('')
  })

  it('drops empty context menu titles and unsafe context links', () => {
    expect(hostile.contextMenu?.navigation?.map((e) => e.title)).toEqual(['Section one', 'JS'])
    expect(hostile.contextMenu?.navigation?.[1]?.link).toBe('')
    expect(hostile.contextMenu?.additionalLink).toBe('')
    expect(hostile.contextMenu?.iconButtons?.[0]?.link).toBe('mailto:office@example.com')
  })

  it('reports what it removed', () => {
    expect(problems.some((p) => p.message.includes('unsafe link') && p.kind === 'UNSAFE_LINK')).toBe(true)
    expect(problems.every((p) => p.message.startsWith('page 99: '))).toBe(true)
  })

  it('sanitises a single string directly', () => {
    expect(sanitizeRichText('<p onmouseover="x()">a<script>b</script></p>')).toBe('<p>a</p>')
    expect(sanitizeRichText('<a href=" javascript:alert(1)">x</a>')).toBe('<a>x</a>')
    expect(sanitizeRichText('<a href="tel:+48 1">t</a><a href="mailto:a@b.c">m</a>')).toContain('href="tel:+48 1"')
  })

  it('gives noopener to a link that opens another window, whatever name its target gives that window', () => {
    expect(sanitizeRichText('<a href="https://x.example/" target="news">n</a>')).toBe(
      '<a href="https://x.example/" target="news" rel="noopener">n</a>',
    )
    expect(sanitizeRichText('<a href="https://x.example/" target="_BLANK">b</a>')).toContain('rel="noopener"')
    expect(sanitizeRichText('<a href="/a" target="_self">s</a>')).toBe('<a href="/a" target="_self">s</a>')
  })

  it('removes a text nested deeper than the parser handles in bounded time, and keeps deep legitimate markup', () => {
    const reports: string[] = []
    const html = sanitizeRichText('<div>'.repeat(200_000), (what, kind) => reports.push(`${kind} ${what}`))
    expect({ html, reports }).toEqual({
      html: '',
      reports: [`UNSAFE_MARKUP rich text nested deeper than ${MAX_RICH_TEXT_DEPTH} levels removed`],
    })
    // at the limit, and unclosed paragraphs, list items and cells (a sibling closes them), are sanitised as ever
    const atLimit = `${'<div>'.repeat(MAX_RICH_TEXT_DEPTH)}x${'</div>'.repeat(MAX_RICH_TEXT_DEPTH)}`
    expect(sanitizeRichText(atLimit)).toBe(atLimit)
    const loose = `<ul>${'<li>item'.repeat(1000)}</ul><table><tr>${'<td>c'.repeat(1000)}</table>${'<p>a'.repeat(1000)}`
    expect(sanitizeRichText(loose)).toContain('<li>item</li>')
  })

  // the timeout is a hang guard, not a speed check: the depth count searched to the end of the text from each `<` (40 s)
  it('sanitises a text that ends in 200,000 unclosed tags in linear time', () => {
    expect(sanitizeRichText(`<p>x</p>${'<a '.repeat(200_000)}`)).toBe('<p>x</p>')
  }, 8_000)

  it('gives a repeated text the same HTML and tells every caller what was removed from it', () => {
    const text = '<p onclick="x()">Hi<a href="javascript:y()">a</a><script>z()</script></p>'
    const heard = () => {
      const reports: string[] = []
      const html = sanitizeRichText(text, (what, kind) => reports.push(`${kind} ${what}`))
      return { html, reports }
    }
    const first = heard()
    expect(first).toEqual({
      html: '<p>Hi<a>a</a></p>',
      reports: [
        'UNSAFE_MARKUP event handler onclick on <p> removed',
        'UNSAFE_LINK unsafe link "javascript:y()" removed',
        'UNSAFE_MARKUP <script> removed',
      ],
    })
    expect(heard()).toEqual(first)
  })
})

describe('repairing mistyped data', () => {
  it('repairs page-level types and reports each', () => {
    const { page: prepared, problems } = page(readJson('hostile/page-mistyped.json'))
    expect(prepared.id).toBe(12)
    expect(prepared.meta).toEqual({})
    expect(prepared.appearance).toEqual({})
    expect(prepared.content).toEqual({})
    expect(prepared.i18n).toEqual([])
    expect(prepared.breadcrumbs).toEqual([])
    expect(prepared.media).toEqual([])
    expect(prepared.contextMenu).toBeUndefined()
    expect(prepared.seo).toBeUndefined()
    for (const field of ['meta', 'appearance', 'content', 'i18n', 'breadcrumbs', 'media', 'contextMenu', 'seo']) {
      expect(
        problems.some((p) => p.message.includes(field) && p.kind === 'INVALID_DATA'),
        field,
      ).toBe(true)
    }
  })

  it('skips unusable elements and columns, repairs the rest', () => {
    const { page: prepared, problems } = page(readJson('hostile/page-bad-elements.json'))
    expect(Object.keys(prepared.content)).toEqual(['colPos0'])
    const elements = prepared.content.colPos0 ?? []
    expect(elements.map((el) => el.id)).toEqual([6, 7, 8, 9, 10, 11, 14, 15])
    const byId = new Map(elements.map((el) => [el.id, el]))
    expect(byId.get(6)?.content).toEqual({})
    expect(byId.get(8)?.content.bodytext).toEqual([])
    expect(byId.get(9)?.content.menu).toEqual([])
    expect(byId.get(10)?.content.shortcut).toEqual([])
    expect(byId.get(11)?.appearance).toEqual({ layout: '', frameClass: '', spaceBefore: '', spaceAfter: '' })
    expect(byId.get(11)?.content.gallery).toBeUndefined()
    expect(byId.get(14)?.content.bodytext).toEqual([['a', '1', ''], 'row', ['']])
    expect(byId.get(15)?.content.media).toEqual([])
    expect(prepared.meta.title).toBeUndefined()
    expect(prepared.meta.robots).toEqual({ noIndex: false, noFollow: false })
    expect(prepared.appearance).toEqual({})
    expect(problems.length).toBeGreaterThanOrEqual(14)
    const messages = problems.map((p) => p.message).join('\n')
    expect(messages).toMatch(/without a numeric id/)
    expect(messages).toMatch(/colPos1: column is not a list/)
  })

  it('names the type of a content that is not an object, never its text (a log line per page, not the whole text)', () => {
    const text = 'x'.repeat(100_000)
    const { problems } = page({ id: 1, content: { colPos0: [{ id: 2, type: 'text', content: text }] } })
    const { problems: pageProblems } = page({ id: 1, content: text })
    expect([...problems, ...pageProblems].map((p) => p.message)).toEqual([
      'page 1: content.colPos0[0] (id 2, text): content is string, used {}',
      'page 1: content is string, used {}',
    ])
  })

  it('groups a flat list of elements by their colPos (doNotGroupByColPos), in its order, and drops those without', () => {
    const element = (id: number, colPos: unknown) => ({
      id,
      type: 'text',
      colPos,
      appearance: {},
      content: { bodytext: `<p>${id}</p>` },
    })
    const { page: prepared, problems } = page({
      id: 1,
      meta: {},
      appearance: {},
      content: [element(1, 0), element(2, 1), element(3, '0'), element(4, null), element(5, -1), element(6, 1)],
    })
    expect(Object.fromEntries(Object.entries(prepared.content).map(([k, v]) => [k, v.map((el) => el.id)]))).toEqual({
      colPos0: [1, 3],
      colPos1: [2, 6],
    })
    expect(problems.map((p) => p.message)).toEqual([
      'page 1: content[3]: a content element without a colPos in a list of them, dropped',
      'page 1: content[4]: a content element without a colPos in a list of them, dropped',
    ])
    // an empty list is an empty page
    expect(page({ id: 1, meta: {}, appearance: {}, content: [] })).toMatchObject({
      page: { content: {} },
      problems: [],
    })
  })

  it('drops a language entry whose code is no language tag (it would stand in lang and hreflang), and says so', () => {
    const entry = (twoLetterIsoCode: string) => ({ twoLetterIsoCode, link: '/', navigationTitle: 'X', available: 1 })
    const { page: prepared, problems } = page({
      id: 1,
      content: {},
      i18n: ['en"><script>x</script>', 'EN_us', 'x', 'a'.repeat(200), 'pl', 'de-CH'].map(entry),
    })
    expect(prepared.i18n?.map((l) => l.twoLetterIsoCode)).toEqual(['pl', 'de-CH'])
    expect(problems.map((p) => p.message)).toEqual([
      'page 1: i18n[0]: language code "en\\"><script>x</script>" is not a language tag, dropped',
      'page 1: i18n[1]: language code "EN_us" is not a language tag, dropped',
      'page 1: i18n[2]: language code "x" is not a language tag, dropped',
      `page 1: i18n[3]: language code "${'a'.repeat(40)}" is not a language tag, dropped`,
    ])
    expect(problems.every((p) => p.kind === 'INVALID_DATA')).toBe(true)
  })

  it('never throws, whatever the value', () => {
    for (const raw of [
      undefined,
      0,
      [],
      'x',
      {
        id: 1,
        content: {
          colPos0: [
            {
              id: 1,
              type: 'shortcut',
              content: { shortcut: [{ id: 2, type: 'shortcut', content: { shortcut: 'x' } }] },
            },
          ],
        },
      },
    ]) {
      expect(() => preparePage(raw)).not.toThrow()
      expect(() => prepareInitialData(raw)).not.toThrow()
    }
  })

  it('cuts off absurdly deep nesting instead of overflowing the stack', () => {
    let deep: unknown = { bodytext: '<p>x</p>' }
    for (let i = 0; i < 5000; i++) deep = { child: deep }
    const { page: prepared, problems } = page({
      id: 1,
      content: { colPos0: [{ id: 2, type: 'text', content: { deep } }] },
    })
    expect(prepared.content.colPos0).toHaveLength(1)
    // filed under the element whose data it is (the uid an editor needs)
    expect(problems).toContainEqual(expect.objectContaining({ kind: 'INVALID_DATA', elementUid: 2 }))
    expect(problems.some((p) => p.message.includes('nested deeper') && p.elementUid === 2)).toBe(true)
  })
})

describe('prepareInitialData', () => {
  it('passes the contract fixture without problems', () => {
    const { data, problems } = prepareInitialData(readJson('contract/nuxt-typo3-main/initialData.json'))
    expect(problems).toEqual([])
    expect(data.navigation[0]?.children?.length).toBeGreaterThan(3)
    expect(data.i18n).toHaveLength(15)
  })

  it('sanitises and repairs hostile initial data', () => {
    const { data, problems } = prepareInitialData(readJson('hostile/initial-data-hostile.json'))
    const children = data.navigation[0]?.children ?? []
    expect(children.map((c) => [c.title, c.link])).toEqual([
      ["<script>alert('nav')</script>", '/a'],
      ['JS', ''],
    ])
    expect(data.i18n.map((l) => [l.twoLetterIsoCode, l.link, l.available])).toEqual([
      ['en', '/', 1],
      ['pl', '', 0],
    ])
    expect(data.featuredNavigation).toEqual([])
    expect(data.footerNavigation).toEqual([])
    expect(data.footerContactData?.content.bodytext).toBe('<p>Call <a href="tel:+48123">us</a></p>')
    expect((data.footerContactData!.content.items as Array<{ link?: string }>)[1]?.link).toBe('')
    expect(data.backendEditor).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype)
    expect(problems.length).toBeGreaterThanOrEqual(4)
  })

  it("reports an unsafe link of a footer or social menu once, under the menu's own name", () => {
    const { data, problems } = prepareInitialData({
      navigation: [],
      socialMenu: [{ title: 'S', link: 'javascript:alert(1)' }],
      footerNavigation: [{ title: 'F', link: 'vbscript:x' }],
    })
    expect([data.socialMenu?.[0]?.link, data.footerNavigation?.[0]?.link]).toEqual(['', ''])
    expect(problems.map((p) => p.message)).toEqual([
      'initial data: socialMenu[0].link: unsafe link "javascript:alert(1)" removed',
      'initial data: footerNavigation[0].link: unsafe link "vbscript:x" removed',
    ])
  })

  it("writes another site's URL in ASCII and removes one no browser can read, saying so", () => {
    const { data, problems } = prepareInitialData({
      navigation: [
        { title: 'Q', link: 'https://evil.invalid/"><x' },
        { title: 'B', link: ' https://bücher.example/über uns?q=ż ' },
        { title: 'S', link: 'https://exa mple.com/' },
        { title: 'K', link: 'https://partner.example/a?b=c#d' },
      ],
    })
    expect(data.navigation.map((entry) => entry.link)).toEqual([
      'https://evil.invalid/%22%3E%3Cx',
      'https://xn--bcher-kva.example/%C3%BCber%20uns?q=%C5%BC',
      '',
      'https://partner.example/a?b=c#d',
    ])
    expect(problems).toEqual([
      {
        kind: 'UNSAFE_LINK',
        message: 'initial data: navigation[2].link: link "https://exa mple.com/" is not a valid URL, removed',
      },
    ])
  })

  it('turns a non-object into empty navigation', () => {
    expect(prepareInitialData('x').data).toEqual({ navigation: [], i18n: [] })
  })
})

describe('size', () => {
  it('prepares a 5 MB page of 2,400 rich texts in linear time, not quadratic', () => {
    const paragraph = `<p>${'Lorem ipsum <strong>dolor</strong> sit <a href="/x">amet</a>, '.repeat(30)}</p>`
    const elements = Array.from({ length: 2400 }, (_, i) => ({
      id: i + 1,
      type: i % 3 === 0 ? 'textpic' : 'text',
      appearance: { layout: 'default', frameClass: 'default', spaceBefore: '', spaceAfter: '' },
      content: { header: `Element ${i}`, headerLayout: 2, bodytext: paragraph, headerLink: { href: `/page-${i}` } },
    }))
    const raw = { id: 1, meta: { title: 'Big' }, appearance: {}, content: { colPos0: elements } }
    expect(JSON.stringify(raw).length).toBeGreaterThan(5_000_000)
    const started = performance.now()
    const { page: prepared, problems } = page(raw)
    const elapsed = performance.now() - started
    expect(problems).toEqual([])
    expect(prepared.content.colPos0).toHaveLength(2400)
    // a hang guard, not a speed check (bench/ measures speed): quadratic work would take minutes
    expect(elapsed).toBeLessThan(30_000)
  })
})

describe('hostile corpus regressions', () => {
  it('refuses http-equiv meta from the seo block and reports it', () => {
    const { page: prepared, problems } = page({
      id: 1,
      meta: { title: 'x' },
      appearance: {},
      content: {},
      seo: {
        title: 'x',
        meta: [
          { 'http-equiv': 'refresh', content: '0;url=javascript:window.__xss=1' },
          { name: 'description', content: 'ok' },
        ],
      },
    })
    expect(prepared.seo?.meta).toEqual([{ name: 'description', content: 'ok' }])
    expect(problems).toContainEqual({
      kind: 'UNSAFE_MARKUP',
      message: 'page 1: seo.meta: http-equiv "refresh" refused',
    })
  })

  it('lists every unsafe link, handler and tag removed from bodytext', () => {
    const bodytext =
      '<p onclick="x()"><a href="file:///etc/passwd">f</a><a href="JaVaScRiPt:alert(1)">j</a><img src="data:x"><script>x()</script></p>'
    const { page: prepared, problems } = page({
      id: 1,
      meta: {},
      appearance: {},
      content: { colPos0: [{ id: 5, type: 'text', content: { bodytext } }] },
    })
    expect((prepared.content.colPos0![0]!.content as { bodytext: string }).bodytext).toBe('<p><a>f</a><a>j</a></p>')
    const reported = problems.map((p) => `${p.kind} ${p.elementUid} ${p.message}`).join('\n')
    for (const part of [
      'UNSAFE_LINK 5 page 1: content.colPos0[0] (id 5, text).bodytext: unsafe link "file:///etc/passwd" removed',
      'UNSAFE_LINK 5 page 1: content.colPos0[0] (id 5, text).bodytext: unsafe link "JaVaScRiPt:alert(1)" removed',
      'UNSAFE_LINK 5 page 1: content.colPos0[0] (id 5, text).bodytext: unsafe image source "data:x" removed',
      'UNSAFE_MARKUP 5 page 1: content.colPos0[0] (id 5, text).bodytext: <script> removed',
      'UNSAFE_MARKUP 5 page 1: content.colPos0[0] (id 5, text).bodytext: event handler onclick on <p> removed',
    ])
      expect(reported).toContain(part)
  })
})
