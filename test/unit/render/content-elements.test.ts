import { beforeAll, describe, expect, it } from 'vitest'
import type { RenderState, TemplateRegistry } from '../../../src/shared/contract.js'
import { loadRegistry, mainOf, makeElement, renderElements } from './helpers.js'

let registry: TemplateRegistry
beforeAll(async () => {
  registry = await loadRegistry()
})

const html = (
  type: string,
  content: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  state: Partial<RenderState> = {},
) => mainOf(renderElements(registry, [makeElement(type, content, extra)], state).appHtml)

const image = (name: string, props: Record<string, unknown> = {}) => ({
  publicUrl: `https://cdn.example.com/${name}`,
  properties: {
    alternative: `Alt ${name}`,
    title: null,
    description: null,
    type: 'image',
    mimeType: 'image/jpeg',
    dimensions: { width: 640, height: 480 },
    filename: name,
    size: '12 KB',
    extension: 'jpg',
    ...props,
  },
})

const gallery = (files: unknown[], vertical = 'above', horizontal = 'center') => ({
  position: { horizontal, vertical, noWrap: false },
  count: { files: files.length, columns: files.length, rows: 1 },
  rows: { 1: { columns: Object.fromEntries(files.map((f, i) => [String(i + 1), f])) } },
})

describe('frames', () => {
  it('wraps elements in a t3-ce-frame with the frame classes', () => {
    const out = html(
      'text',
      { header: 'x' },
      { appearance: { layout: 'layout-1', frameClass: 'indent', spaceBefore: 'small', spaceAfter: '' } },
    )
    expect(out).toContain(
      '<div id="c11" class="t3-ce-frame frame-indent layout-layout-1 space-before-small space-after-default">',
    )
  })

  it('puts the id on the element itself for frameClass none', () => {
    const out = html('text', { header: 'x' }, { appearance: { layout: 'default', frameClass: 'none' } })
    expect(out).toContain('<div id="c11" class="ce ce-text">')
    expect(out).not.toContain('t3-ce-frame')
  })
})

describe('header and text', () => {
  it('renders the header at its level with subheader, position and link', () => {
    expect(html('header', { header: 'Default level', headerLayout: 0 })).toContain(
      '<h2 class="ce-headline">Default level</h2>',
    )
    expect(html('header', { header: 'Three', headerLayout: 3, subheader: 'More' })).toContain(
      '<h3 class="ce-headline">Three</h3><p class="ce-subheader">More</p>',
    )
    expect(html('header', { header: 'Hidden', headerLayout: 100 })).not.toContain('Hidden')
    expect(html('header', { header: 'Centered', headerPosition: 'center' })).toContain('ce-header ce-header--center')
    expect(html('header', { header: 'Linked', headerLink: { href: '/about', target: '_blank' } })).toContain(
      '<a href="/about" target="_blank" rel="noopener">Linked</a>',
    )
  })

  it('renders bodytext HTML', () => {
    const out = html('text', { header: 'T', bodytext: '<p>Para <strong>bold</strong> <a href="/x">link</a></p>' })
    expect(out).toContain('<div class="ce-bodytext"><p>Para <strong>bold</strong> <a href="/x">link</a></p></div>')
  })
})

describe('media elements', () => {
  it('textpic: gallery above the text with width, height and alt; the first element loads eagerly', () => {
    const out = html('textpic', {
      header: 'Pic',
      bodytext: '<p>Body</p>',
      gallery: gallery([image('a.jpg', { description: 'Caption A' })]),
    })
    expect(out).toContain(
      '<img src="https://cdn.example.com/a.jpg" alt="Alt a.jpg" width="640" height="480" loading="eager"',
    )
    expect(out).toContain('<figcaption>Caption A</figcaption>')
    expect(out.indexOf('ce-gallery')).toBeLessThan(out.indexOf('<p>Body</p>'))
    expect(out).toContain('ce-media-text--above')
  })

  it('textmedia: gallery beside the text (intext right) and below', () => {
    const beside = html('textmedia', { bodytext: '<p>Body</p>', gallery: gallery([image('b.jpg')], 'intext', 'right') })
    expect(beside).toContain('ce-textmedia ce-media-text ce-media-text--intext ce-media-text--right')
    const below = html('textmedia', { bodytext: '<p>Body</p>', gallery: gallery([image('b.jpg')], 'below') })
    expect(below.indexOf('<p>Body</p>')).toBeLessThan(below.indexOf('ce-gallery'))
  })

  it('image: several images in columns, lazy after the first', () => {
    const [first, second] = [
      makeElement('header', { header: 'First' }, { id: 1 }),
      makeElement('image', { gallery: gallery([image('c.jpg'), image('d.jpg', { alternative: null })]) }, { id: 2 }),
    ]
    const out = mainOf(renderElements(registry, [first, second]).appHtml)
    expect(out).toContain('data-ce-columns="2"')
    expect(out.match(/loading="lazy"/g)).toHaveLength(2)
    expect(out).toContain('src="https://cdn.example.com/d.jpg" alt=""')
  })
})

describe('bullets', () => {
  it('type 0 is an unordered list, 1 ordered, 2 a definition list', () => {
    expect(html('bullets', { bulletsType: 0, bodytext: ['One', 'Two'] })).toContain(
      '<ul class="ce-bullets__list"><li>One</li><li>Two</li></ul>',
    )
    expect(html('bullets', { bulletsType: 1, bodytext: ['One', 'Two'] })).toContain(
      '<ol class="ce-bullets__list"><li>One</li><li>Two</li></ol>',
    )
    expect(
      html('bullets', {
        bulletsType: 2,
        bodytext: [
          ['Term', 'Meaning'],
          ['T2', 'M2'],
        ],
      }),
    ).toContain(
      '<dl class="ce-bullets__list"><div class="ce-bullets__pair"><dt>Term</dt><dd>Meaning</dd></div><div class="ce-bullets__pair"><dt>T2</dt><dd>M2</dd></div></dl>',
    )
  })
})

describe('table', () => {
  const rows = [
    ['Name', 'Price'],
    ['Apple', '1'],
    ['Pear', '2'],
    ['Total', '3'],
  ]

  it('renders the caption and a header row for tableHeaderPosition 1', () => {
    const out = html('table', { tableCaption: 'Prices', bodytext: rows, tableHeaderPosition: 1, tableTfoot: '0' })
    expect(out).toContain('<caption>Prices</caption>')
    expect(out).toContain('<thead><tr><th scope="col">Name</th><th scope="col">Price</th></tr></thead>')
    expect(out).toContain('<tbody><tr><td>Apple</td><td>1</td></tr>')
    expect(out).not.toContain('<tfoot>')
  })

  it('renders row headers for tableHeaderPosition 2 and the last row as tfoot', () => {
    const out = html('table', { bodytext: rows, tableHeaderPosition: 2, tableTfoot: '1' })
    expect(out).not.toContain('<thead>')
    expect(out).toContain('<tr><th scope="row">Apple</th><td>1</td></tr>')
    expect(out).toContain('<tfoot><tr><th scope="row">Total</th><td>3</td></tr></tfoot>')
  })

  it('renders plain cells without a header position', () => {
    expect(html('table', { bodytext: rows, tableHeaderPosition: 0 })).toContain('<tr><td>Name</td><td>Price</td></tr>')
  })
})

describe('uploads', () => {
  const media = [
    image('report.pdf', {
      type: 'application',
      title: 'Annual report',
      description: 'The 2025 report',
      extension: 'pdf',
      size: '2 MB',
    }),
  ]

  it('lists files as links with size and description per the flags', () => {
    const out = html('uploads', {
      media,
      displayInformation: '1',
      displayFileSizeInformation: '1',
      displayDescription: '1',
      target: '_blank',
    })
    expect(out).toContain(
      '<a href="https://cdn.example.com/report.pdf" target="_blank" rel="noopener" class="ce-uploads__link">Annual report</a>',
    )
    expect(out).toContain('(PDF, 2 MB)')
    expect(out).toContain('The 2025 report')
    expect(out).toContain('ce-uploads__type')
  })

  it('leaves size and description out when their flags are off', () => {
    const out = html('uploads', {
      media,
      displayInformation: '0',
      displayFileSizeInformation: '0',
      displayDescription: '0',
    })
    expect(out).not.toContain('2 MB')
    expect(out).not.toContain('The 2025 report')
    expect(out).not.toContain('ce-uploads__type')
  })

  it('shows thumbnails of images for displayInformation 2', () => {
    expect(html('uploads', { media: [image('p.jpg')], displayInformation: '2' })).toContain('class="ce-uploads__thumb"')
  })
})

describe('values of another type than EXT:headless sends (the API is untrusted)', () => {
  // a JSON object with its own `toString` key: String() or Number() of it throws
  const odd = { toString: 'x', valueOf: 'x' }

  it('uploads: a file extension, size or description that is no text is left out, the file still listed', () => {
    const file = image('plan.pdf', { type: 'file', extension: odd, size: odd, description: odd, title: 'Plan' })
    const out = html('uploads', {
      media: [file],
      displayInformation: odd,
      displayFileSizeInformation: '1',
      displayDescription: '1',
    })
    expect(out).toContain('class="ce-uploads__link">Plan</a>')
    expect(out).not.toContain('ce-uploads__size')
    expect(html('uploads', { media: [image('n.pdf', { extension: 7, displayInformation: '1' })] })).toContain(
      'class="ce-uploads__link"',
    )
  })

  it('bullets and table: a list type, header position or footer flag that is no number reads as none', () => {
    expect(html('bullets', { bodytext: ['One', 'Two'], bulletsType: odd })).toContain('<li>Two</li>')
    const out = html('table', {
      bodytext: [
        ['a', 'b'],
        ['c', 'd'],
      ],
      tableHeaderPosition: odd,
      tableTfoot: odd,
    })
    expect(out).toContain('<td>d</td>')
    expect(out).not.toContain('<th')
    expect(out).not.toContain('<tfoot')
  })
})

describe('html, div, shortcut, list', () => {
  it('html renders its (sanitised) markup without a header', () => {
    const out = html('html', {
      header: 'Not shown',
      bodytext: '<div class="x"><b>Raw</b><script>alert(1)</script></div>',
    })
    expect(out).toContain('<b>Raw</b>')
    expect(out).not.toContain('Not shown')
    expect(out).not.toContain('<script')
  })

  it('div is a divider', () => {
    expect(html('div', { header: '' })).toContain('<hr class="ce ce-div"/>')
  })

  it('shortcut renders its referenced elements with their own frames', () => {
    const out = html('shortcut', {
      shortcut: [
        makeElement('text', { header: 'Referenced' }, { id: 301 }),
        makeElement('bullets', { bodytext: ['x'] }, { id: 302 }),
      ],
    })
    expect(out).toContain('id="c301"')
    expect(out).toContain('Referenced')
    expect(out).toContain('id="c302"')
  })

  it('list shows its header only', () => {
    const out = html('list', { header: 'Plugin', secret: 'plugin data' })
    expect(out).toContain('Plugin')
    expect(out).not.toContain('plugin data')
  })
})

describe('menus', () => {
  const menu = [
    { title: 'Apple Pie', link: '/recipes/apple-pie', target: '', abstract: 'Sweet', media: [image('pie.jpg')] },
    {
      title: 'Brandy',
      link: '/recipes/brandy',
      target: '_blank',
      children: [{ title: 'Old', link: '/recipes/brandy/old' }],
    },
    { title: 'Spacer', link: '', spacer: 1 },
  ]

  it('menu_pages and menu_subpages list the page links', () => {
    for (const type of [
      'menu_pages',
      'menu_subpages',
      'menu_recently_updated',
      'menu_related_pages',
      'menu_categorized_pages',
    ]) {
      const out = html(type, { header: 'Pages', menu })
      expect(out).toContain('<a href="/recipes/apple-pie">Apple Pie</a>')
      expect(out).toContain('<a href="/recipes/brandy" target="_blank" rel="noopener">Brandy</a>')
      expect(out).not.toContain('Spacer')
    }
  })

  it('renders cards with images for card layouts', () => {
    const out = html('menu_pages', { menu }, { appearance: { layout: 'menu-with-cards', frameClass: 'container' } })
    expect(out).toContain('<ul class="cards">')
    expect(out).toContain('src="https://cdn.example.com/pie.jpg"')
  })

  it('menu_abstract shows the abstracts', () => {
    expect(html('menu_abstract', { menu })).toContain('<p class="menu-list__abstract">Sweet</p>')
  })

  it('menu_sitemap renders the nested tree', () => {
    for (const type of ['menu_sitemap', 'menu_sitemap_pages']) {
      const out = html(type, { header: 'Sitemap', menu })
      expect(out).toContain('<ul class="sitemap__children"><li><a href="/recipes/brandy/old">Old</a></li></ul>')
    }
  })

  it('menu_section links to the content sections of each page', () => {
    const out = html('menu_section', {
      menu: [
        {
          title: 'About',
          link: '/about',
          content: [
            { uid: 12, header: 'Team', media: [] },
            { uid: 13, header: '' },
          ],
        },
      ],
    })
    expect(out).toContain('<a href="/about#c12">Team</a>')
    expect(out).not.toContain('#c13')
  })

  it('menu_categorized_content lists the content headers', () => {
    expect(html('menu_categorized_content', { menu: [{ uid: 5, header: 'News item', media: [] }] })).toContain(
      '<li>News item</li>',
    )
  })
})
