/**
 * Words and sentences the generated site is made of, per language code.
 * Real sentences (no lorem ipsum) so rendered pages look like a plausible site.
 */

export interface GeneratedTexts {
  /** Path words: `/section-3/page-120`, `/pl/dzial-3/strona-120`. */
  sectionSlug: string
  pageSlug: string
  home: string
  section: string
  adjectives: readonly string[]
  topics: readonly string[]
  sentences: readonly string[]
  facts: readonly (readonly [string, string])[]
  table: { header: string; caption: string; columns: readonly [string, string, string] }
  headers: { bullets: string; gallery: string; related: string; downloads: string; details: string; hours: string }
  /** A paragraph linking to neighbours: `home` is an href, the others are `<a>` elements. */
  links(l: { previous: string; next: string; section: string; other: string; home: string }): string
  /**
   * The pages at the demo templates' fixed links (templates/texts/<code>.ts `links`), which every page shows:
   * the k-th is the same page in every language; Polish has one more (its data protection notice).
   */
  fixedPages: readonly { slug: string; title: string }[]
}

const EN: GeneratedTexts = {
  sectionSlug: 'section',
  pageSlug: 'page',
  home: 'Generated demo site',
  section: 'Section',
  adjectives: ['Reliable', 'Scalable', 'Secure', 'Modern', 'Efficient', 'Smart', 'Lean', 'Predictable'],
  topics: [
    'warehouse systems',
    'payment flows',
    'reporting',
    'customer portals',
    'mobile apps',
    'data pipelines',
    'APIs',
    'cloud costs',
    'release processes',
    'search',
  ],
  sentences: [
    'We start every project with a short workshop to understand how your team works today.',
    'Small, stable teams keep the knowledge of your system in one place.',
    'Automated tests run on every change, so releases stay boring.',
    'We measure what matters to your business, not what is easy to count.',
    'Security reviews are part of every sprint, not an afterthought.',
    'Our engineers document decisions so that your own team can take over at any time.',
    'Cloud resources are sized to real traffic and reviewed every month.',
    'Accessibility is checked with real assistive technology before each release.',
  ],
  facts: [
    ['Duration', '6 months'],
    ['Team', '5 people'],
    ['Industry', 'Logistics'],
    ['Technology', 'TypeScript, PostgreSQL'],
  ],
  table: {
    header: 'Key figures',
    caption: 'Figures from the first year of operation',
    columns: ['Metric', 'Before', 'After'],
  },
  headers: {
    bullets: 'At a glance',
    gallery: 'Impressions',
    related: 'Related pages',
    downloads: 'Downloads',
    details: 'Details',
    hours: 'Office hours',
  },
  links: (l) =>
    `Read on: ${l.previous}, ${l.next} or a related topic: ${l.other}. See the whole section: ${l.section}. Back to the <a href="${l.home}">home page</a>.`,
  fixedPages: [
    { slug: '/contact', title: 'Contact' },
    { slug: '/careers', title: 'Careers' },
    { slug: '/policy', title: 'Privacy policy' },
  ],
}

const PL: GeneratedTexts = {
  sectionSlug: 'dzial',
  pageSlug: 'strona',
  home: 'Wygenerowana strona demonstracyjna',
  section: 'Dział',
  adjectives: [
    'Niezawodne',
    'Skalowalne',
    'Bezpieczne',
    'Nowoczesne',
    'Wydajne',
    'Inteligentne',
    'Proste',
    'Przewidywalne',
  ],
  topics: [
    'systemy magazynowe',
    'płatności',
    'raporty',
    'portale klienckie',
    'aplikacje mobilne',
    'potoki danych',
    'interfejsy API',
    'koszty chmury',
    'procesy wydawnicze',
    'wyszukiwarki',
  ],
  sentences: [
    'Każdy projekt zaczynamy od krótkich warsztatów, aby zrozumieć, jak dziś pracuje Twój zespół.',
    'Małe, stabilne zespoły sprawiają, że wiedza o Twoim systemie nie ginie.',
    'Testy automatyczne uruchamiają się przy każdej zmianie, więc wdrożenia są przewidywalne.',
    'Mierzymy to, co ważne dla Twojego biznesu, a nie to, co łatwo policzyć.',
    'Przegląd bezpieczeństwa jest częścią każdego sprintu, a nie dodatkiem na końcu.',
    'Nasi inżynierowie dokumentują decyzje, aby Twój zespół mógł w każdej chwili przejąć projekt.',
    'Zasoby w chmurze dobieramy do rzeczywistego ruchu i co miesiąc je weryfikujemy.',
    'Dostępność sprawdzamy z użyciem prawdziwych technologii asystujących przed każdym wydaniem.',
  ],
  facts: [
    ['Czas trwania', '6 miesięcy'],
    ['Zespół', '5 osób'],
    ['Branża', 'Logistyka'],
    ['Technologie', 'TypeScript, PostgreSQL'],
  ],
  table: {
    header: 'Najważniejsze liczby',
    caption: 'Dane z pierwszego roku działania',
    columns: ['Wskaźnik', 'Przed', 'Po'],
  },
  headers: {
    bullets: 'W skrócie',
    gallery: 'Galeria',
    related: 'Powiązane strony',
    downloads: 'Do pobrania',
    details: 'Szczegóły',
    hours: 'Godziny pracy',
  },
  links: (l) =>
    `Czytaj dalej: ${l.previous}, ${l.next} albo powiązany temat: ${l.other}. Zobacz cały dział: ${l.section}. Wróć na <a href="${l.home}">stronę główną</a>.`,
  fixedPages: [
    { slug: '/kontakt', title: 'Kontakt' },
    { slug: '/kariera', title: 'Kariera' },
    { slug: '/polityka-prywatnosci', title: 'Polityka prywatności' },
    { slug: '/klauzula-informacyjna-rodo', title: 'Klauzula informacyjna RODO' },
  ],
}

const DE: GeneratedTexts = {
  sectionSlug: 'bereich',
  pageSlug: 'seite',
  home: 'Generierte Demo-Website',
  section: 'Bereich',
  adjectives: [
    'Zuverlässige',
    'Skalierbare',
    'Sichere',
    'Moderne',
    'Effiziente',
    'Intelligente',
    'Schlanke',
    'Planbare',
  ],
  topics: [
    'Lagersysteme',
    'Zahlungsabläufe',
    'Berichte',
    'Kundenportale',
    'Mobil-Apps',
    'Datenpipelines',
    'Schnittstellen',
    'Cloud-Kosten',
    'Release-Prozesse',
    'Suchfunktionen',
  ],
  sentences: [
    'Jedes Projekt beginnt mit einem kurzen Workshop, in dem wir verstehen, wie Ihr Team heute arbeitet.',
    'Kleine, beständige Teams halten das Wissen über Ihr System an einem Ort.',
    'Automatisierte Tests laufen bei jeder Änderung, damit Releases unspektakulär bleiben.',
    'Wir messen, was für Ihr Geschäft zählt, nicht was sich leicht zählen lässt.',
    'Sicherheitsprüfungen gehören zu jedem Sprint und kommen nicht erst am Ende.',
    'Unsere Ingenieure dokumentieren Entscheidungen, damit Ihr eigenes Team jederzeit übernehmen kann.',
    'Cloud-Ressourcen richten wir nach dem tatsächlichen Traffic aus und prüfen sie monatlich.',
    'Barrierefreiheit testen wir vor jedem Release mit echten assistiven Technologien.',
  ],
  facts: [
    ['Dauer', '6 Monate'],
    ['Team', '5 Personen'],
    ['Branche', 'Logistik'],
    ['Technologie', 'TypeScript, PostgreSQL'],
  ],
  table: {
    header: 'Kennzahlen',
    caption: 'Zahlen aus dem ersten Betriebsjahr',
    columns: ['Kennzahl', 'Vorher', 'Nachher'],
  },
  headers: {
    bullets: 'Auf einen Blick',
    gallery: 'Eindrücke',
    related: 'Verwandte Seiten',
    downloads: 'Downloads',
    details: 'Details',
    hours: 'Öffnungszeiten',
  },
  links: (l) =>
    `Weiterlesen: ${l.previous}, ${l.next} oder ein verwandtes Thema: ${l.other}. Der ganze Bereich: ${l.section}. Zurück zur <a href="${l.home}">Startseite</a>.`,
  fixedPages: [
    { slug: '/kontakt', title: 'Kontakt' },
    { slug: '/karriere', title: 'Karriere' },
    { slug: '/policy', title: 'Datenschutzerklärung' },
  ],
}

const TEXTS: Record<string, GeneratedTexts> = { en: EN, pl: PL, de: DE }

/** Texts of a language code; languages without their own fall back to English words. */
export const generatedTexts = (code: string): GeneratedTexts => TEXTS[code] ?? EN
