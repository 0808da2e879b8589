import { beforeAll, describe, expect, it } from 'vitest'
import { renderPage } from '../../../src/render/render-page.js'
import type { RenderState, TemplateRegistry } from '../../../src/shared/contract.js'
import type { InitialData, LanguageEntry } from '../../../src/shared/types.js'
import { loadRegistry, makePage, makeState, prepareInitial } from './helpers.js'

let registry: TemplateRegistry
beforeAll(async () => {
  registry = await loadRegistry()
})

const lang = (code: string, id: number, link: string, extra: Partial<LanguageEntry> = {}): LanguageEntry => ({
  languageId: id,
  twoLetterIsoCode: code,
  navigationTitle: { en: 'English', pl: 'Polski', de: 'Deutsch' }[code] ?? code,
  hreflang: '',
  link,
  active: 0,
  available: 1,
  direction: 'ltr',
  ...extra,
})

const initial: InitialData = prepareInitial({
  navigation: [
    {
      title: 'Home',
      link: '/',
      children: [
        {
          title: 'Services',
          link: '/services',
          buttonLabel: 'All services',
          children: [{ title: 'Consulting', link: '/services/consulting' }],
        },
        { title: 'Blog', link: 'https://blog.example.org/', target: '_blank' },
        { title: 'Products', link: '', spacer: 1 },
        { title: 'Contact', link: '/contact', buttonLabel: 'Talk to us' },
      ],
    },
  ],
  i18n: [lang('en', 0, '/'), lang('pl', 1, '/pl/'), lang('de', 2, '/de/')],
  featuredNavigation: [{ title: 'Webinar', link: '/webinar' }],
  minorNavigation: [{ title: 'Press', link: '/press' }],
  socialMenu: [{ title: 'LinkedIn', link: 'https://www.linkedin.com/company/example', icon: 'linkedin' }],
  footerNavigation: [{ title: 'Company', link: '/company', children: [{ title: 'Team', link: '/company/team' }] }],
  footerContactData: {
    id: 9,
    type: 'text',
    content: {
      header: 'Get in touch',
      bodytext: '<p>Mon–Fri</p>',
      items: [{ title: 'Phone', value: '+48 12 345', link: 'tel:+4812345' }, 'Warsaw'],
    },
  },
})

const pageI18n = [lang('en', 0, '/about'), lang('pl', 1, '/pl/o-nas'), lang('de', 2, '/de/ueber-uns', { available: 0 })]
const render = (locale: string, extra: Partial<RenderState> = {}) =>
  renderPage(
    makeState({
      locale,
      path: locale === 'en' ? '/about' : `/${locale}/x`,
      page: makePage([], { i18n: pageI18n }),
      initialData: initial,
      ...extra,
    }),
    registry,
  ).appHtml

const header = (html: string) => html.slice(html.indexOf('<header'), html.indexOf('</header>'))
const footer = (html: string) => html.slice(html.indexOf('<footer'), html.indexOf('</footer>'))

describe('header texts per locale', () => {
  it.each([
    [
      'en',
      [
        'Go to home',
        'There you can find us',
        'Schedule a free consultation',
        'Change language',
        'Preferred language',
        'Cancel',
      ],
    ],
    [
      'pl',
      [
        'Przejdź do strony głównej',
        'Gdzie nas znaleźć',
        'Umów bezpłatną konsultację',
        'Zmień język',
        'Preferowany język',
        'Anuluj',
      ],
    ],
    [
      'de',
      [
        'Zur Startseite',
        'So finden Sie uns',
        'Kostenlose Beratung vereinbaren',
        'Sprache ändern',
        'Bevorzugte Sprache',
        'Abbrechen',
      ],
    ],
  ])('%s', (locale, texts) => {
    const out = header(render(locale))
    for (const text of texts) expect(out).toContain(text)
  })

  it('links the logo to the locale home and starts with a skip link to main', () => {
    expect(header(render('en'))).toMatch(
      /^<header class="site-header"><a class="skip-link" href="#main">Skip to content<\/a>/,
    )
    expect(header(render('pl'))).toContain('<a href="/pl" class="site-logo">')
    expect(header(render('de'))).toContain('<a href="/de" class="site-logo">')
  })
})

describe('header navigation', () => {
  const out = () => header(render('en'))

  it('renders navigation[0].children with submenus as nested lists', () => {
    expect(out()).toContain(
      '<a href="/services" class="nav__link">Services</a><ul class="nav nav__submenu"><li class="nav__item"><a href="/services/consulting" class="nav__link">Consulting</a>',
    )
    expect(out()).not.toContain('>Home</a>')
  })

  it('honours target, buttonLabel and spacer', () => {
    expect(out()).toContain(
      '<a href="https://blog.example.org/" target="_blank" rel="noopener" class="nav__link">Blog<span class="visually-hidden"> (opens in a new window)</span></a>',
    )
    expect(out()).toContain('<a href="/contact" class="btn btn--secondary nav__button">Talk to us</a>')
    expect(out()).toContain('<li class="nav__spacer"><span>Products</span></li>')
  })

  it('keeps the title of a parent with a buttonLabel and offers the label as the last submenu link', () => {
    expect(out()).toContain('<a href="/services" class="nav__link">Services</a><ul class="nav nav__submenu">')
    expect(out()).toContain(
      '<li class="nav__item nav__item--overview"><a href="/services" class="nav__link nav__overview">All services</a></li></ul>',
    )
    expect(out()).not.toContain('nav__button">All services')
  })

  it('has a Menu button that opens the menu panel (a popover) and a close button inside it, per locale', () => {
    for (const [locale, menu, close] of [
      ['en', 'Menu', 'Close menu'],
      ['pl', 'Menu', 'Zamknij menu'],
      ['de', 'Menü', 'Menü schließen'],
    ]) {
      const html = header(render(locale as string))
      expect(html).toContain(
        `<button type="button" class="menu-toggle" popoverTarget="site-menu"><span class="menu-toggle__icon" aria-hidden="true"></span>${menu}</button>`,
      )
      expect(html).toContain('<div id="site-menu" class="site-menu" popover="auto">')
      expect(html).toContain(
        `popoverTarget="site-menu" popoverTargetAction="hide"><span class="visually-hidden">${close}</span></button>`,
      )
      // The whole navigation is inside the panel.
      const panel = html.slice(html.indexOf('<div id="site-menu"'))
      for (const part of [
        'class="site-nav"',
        'class="featured-nav"',
        'site-header__cta',
        'class="topbar"',
        'class="lang"',
      ])
        expect(panel).toContain(part)
    }
  })

  it('renders featured, minor and social navigation', () => {
    expect(out()).toContain('<a href="/webinar" class="nav__link">Webinar</a>')
    expect(out()).toContain('<a href="/press" class="nav__link">Press</a>')
    // Social links are icons named for screen readers (not the letters C/W/L).
    const social =
      /<a href="https:\/\/www\.linkedin\.com\/company\/example"[^>]*class="social__link"[^>]*>(.*?)<\/a>/.exec(out())
    expect(social?.[0]).toContain('target="_blank"')
    expect(social?.[1]).toMatch(/^<svg [^>]*aria-hidden="true"/)
    expect(social?.[1]).toContain('<span class="visually-hidden">LinkedIn</span>')
  })
})

describe('language switcher', () => {
  it('links to the translated page, marks the current language and shows unavailable ones as text', () => {
    const out = header(render('pl', { path: '/pl/o-nas' }))
    expect(out).toContain('<a hrefLang="en" lang="en" href="/about" class="lang__link">English</a>')
    expect(out).toContain(
      '<a hrefLang="pl" lang="pl" aria-current="page" href="/pl/o-nas" class="lang__link">Polski</a>',
    )
    expect(out).toContain(
      '<span class="lang__link lang__link--unavailable" lang="de" aria-disabled="true">Deutsch</span>',
    )
    expect(out).not.toContain('href="/de/ueber-uns"')
  })

  it('marks the current language, not the current page, when the page has no entries of its own', () => {
    // the site-wide entries lead to each locale's home: the Polish one is not this page
    const out = header(render('pl', { path: '/pl/o-nas', page: makePage([], {}) }))
    expect(out).toContain('<a hrefLang="pl" lang="pl" aria-current="true" href="/pl" class="lang__link">Polski</a>')
    expect(out).not.toContain('aria-current="page"')
  })

  it('shows only the configured locales', () => {
    const many = makePage([], { i18n: [...pageI18n, lang('fr', 5, '/fr/a-propos')] })
    expect(header(render('en', { page: many }))).not.toContain('/fr/')
  })
})

describe('context menu', () => {
  it('renders navigation without empty titles, the additional link and icon buttons', () => {
    const page = makePage([], {
      contextMenu: {
        navigation: [
          { title: '', link: '/hidden' },
          { title: 'Overview', link: '#overview' },
        ],
        additionalLink: { href: '/brochure.pdf', linkText: 'Download brochure' },
        iconButtons: [{ title: 'Email', link: 'mailto:office@example.com', icon: 'mail' }],
        iconButtonsText: 'Questions?',
      },
    })
    const out = header(render('en', { page }))
    expect(out).toContain(
      '<nav aria-label="On this page" class="context-bar__nav"><ul><li><a href="#overview">Overview</a></li></ul></nav>',
    )
    expect(out).not.toContain('/hidden')
    expect(out).toContain('<a href="/brochure.pdf" class="context-bar__link">Download brochure</a>')
    expect(out).toContain('<span class="context-bar__icons-text">Questions?</span>')
    expect(out).toContain('aria-label="Email"')
    // An icon, not the first letter of the label (C/W/L once stood where phone, mail and LinkedIn icons belong).
    const button = /<a [^>]*class="icon-button icon-button--mail"[^>]*>(.*?)<\/a>/.exec(out)
    expect(button?.[1]).toMatch(/^<svg [^>]*aria-hidden="true"[^>]*>.+<\/svg>$/)
  })
})

describe('footer', () => {
  it.each([
    [
      'en',
      [
        ['/careers', 'Careers'],
        ['/policy', 'Privacy policy'],
      ],
      'Headquarters',
    ],
    [
      'pl',
      [
        ['/pl/kariera', 'Kariera'],
        ['/pl/polityka-prywatnosci', 'Polityka prywatności'],
        ['/pl/klauzula-informacyjna-rodo', 'Klauzula informacyjna RODO'],
      ],
      'Siedziba',
    ],
    [
      'de',
      [
        ['/de/karriere', 'Karriere'],
        ['/de/policy', 'Datenschutzerklärung'],
      ],
      'Hauptsitz',
    ],
  ])('has the %s links', (locale, links, headquarters) => {
    const out = footer(render(locale as string))
    for (const [href, label] of links as string[][]) expect(out).toContain(`<a href="${href}">${label}</a>`)
    expect(out).toContain(`>${headquarters}</a>`)
  })

  it('shows the data-protection notice on Polish pages only', () => {
    expect(footer(render('pl'))).toContain('/pl/klauzula-informacyjna-rodo')
    expect(footer(render('en'))).not.toContain('klauzula')
    expect(footer(render('de'))).not.toContain('klauzula')
  })

  it('renders footerNavigation and footerContactData with its items', () => {
    const out = footer(render('en'))
    expect(out).toContain('<a href="/company/team" class="nav__link">Team</a>')
    expect(out).toContain('<h2 class="footer-contact__title">Get in touch</h2>')
    expect(out).toContain('<p>Mon–Fri</p>')
    // The phone number carries a phone icon.
    expect(out).toMatch(
      /<span class="footer-contact__label">Phone<\/span><a href="tel:\+4812345" rel="noopener" class="footer-contact__link"><svg [^>]*aria-hidden="true".*?<\/svg>\+48 12 345<\/a>/,
    )
    expect(out).toContain('<li>Warsaw</li>')
  })
})

describe('error page', () => {
  const error = (locale: string, status: number) =>
    renderPage(
      makeState({ locale, status, page: null, initialData: initial, error: { status, message: 'x' } }),
      registry,
    ).appHtml

  it.each([
    ['en', '/', 'Unfortunately, the page you&#x27;re looking for could not be found.', 'Check out our home page.'],
    ['pl', '/pl', 'Niestety, nie mogliśmy znaleźć strony, której szukasz.', 'Sprawdź naszą stronę główną.'],
    ['de', '/de', 'Leider konnte die gesuchte Seite nicht gefunden werden.', 'Besuchen Sie unsere Startseite.'],
  ])('404 in %s: text, home link and the large code', (locale, home, text, link) => {
    const out = error(locale, 404)
    expect(out).toContain(`<p class="error-page__code">404</p>`)
    expect(out).toContain(`<h1 id="error-title" class="error-page__title">${text}</h1>`)
    expect(out).toContain(`<a href="${home}" class="btn btn--primary">${link}</a>`)
    expect(out).toContain('<header class="site-header')
    expect(out).toContain('<footer class="site-footer"')
  })

  it.each([
    ['en', 'Error 500'],
    ['pl', 'Błąd 503'],
    ['de', 'Fehler 502'],
  ])('other statuses in %s say "%s"', (locale, text) => {
    const status = Number(text.split(' ')[1])
    expect(error(locale, status)).toContain(`<h1 id="error-title" class="error-page__title">${text}</h1>`)
  })
})

describe('icons (templates/components/Icon.tsx)', () => {
  it('draws every icon from public/icons.svg, which holds a symbol for each', async () => {
    const { readFile } = await import('node:fs/promises')
    const { ICON_NAMES, ICON_SPRITE_URL } = await import('../../../templates/components/Icon.js')
    const sprite = await readFile(new URL(`../../../public${ICON_SPRITE_URL}`, import.meta.url), 'utf8')
    for (const name of ICON_NAMES) expect(sprite, name).toContain(`<symbol id="${name}" viewBox="0 0 24 24">`)
  })
})
