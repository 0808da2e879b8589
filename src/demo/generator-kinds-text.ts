/**
 * The words of the every-kind generated site (generator-kinds.ts) per language code, beside
 * those all generated sites share (generator-text.ts): menu labels, a contact form, captions.
 */

export interface KindsTexts {
  /** Spacer entries of the menus. */
  more: string
  resources: string
  /** An entry that opens in a new window. */
  blog: string
  /** `buttonLabel` of a parent (its submenu's overview link) and of a leaf (a button). */
  seeAll: string
  getInTouch: string
  callUs: string
  writeToUs: string
  iconButtonsText: string
  consultation: string
  caption: string
  quote: string
  fileDescription: string
  plugin: string
  sitemap: string
  sections: string
  form: {
    header: string
    intro: string
    name: string
    email: string
    phone: string
    website: string
    date: string
    people: string
    message: string
    placeholder: string
    topic: string
    topics: readonly [string, string, string]
    contactBy: string
    channels: readonly [string, string, string]
    interests: string
    company: string
    consent: string
    hint: string
  }
}

const EN: KindsTexts = {
  more: 'More',
  resources: 'Resources',
  blog: 'Engineering blog',
  seeAll: 'See the whole section',
  getInTouch: 'Get in touch',
  callUs: 'Call us',
  writeToUs: 'Write to us',
  iconButtonsText: 'Prefer to talk? We answer within one working day.',
  consultation: 'Schedule a free consultation',
  caption: 'Our team at a planning workshop',
  quote: 'They shipped on time, every time, and told us early when something was hard.',
  fileDescription: 'Company profile with references and certificates',
  plugin: 'Open positions',
  sitemap: 'Sitemap',
  sections: 'Sections of these pages',
  form: {
    header: 'Tell us about your project',
    intro: 'We reply within one working day.',
    name: 'Your name',
    email: 'E-mail',
    phone: 'Phone',
    website: 'Company website',
    date: 'Preferred start date',
    people: 'Team size',
    message: 'Your message',
    placeholder: 'What should we know?',
    topic: 'Topic',
    topics: ['New product', 'Existing system', 'Something else'],
    contactBy: 'How should we contact you?',
    channels: ['E-mail', 'Phone', 'Video call'],
    interests: 'Services you are interested in',
    company: 'Company details',
    consent: 'I agree that my data is used to answer this request.',
    hint: 'We never share your data.',
  },
}

const PL: KindsTexts = {
  more: 'Więcej',
  resources: 'Materiały',
  blog: 'Blog inżynierski',
  seeAll: 'Zobacz cały dział',
  getInTouch: 'Skontaktuj się',
  callUs: 'Zadzwoń',
  writeToUs: 'Napisz do nas',
  iconButtonsText: 'Wolisz porozmawiać? Odpowiadamy w ciągu jednego dnia roboczego.',
  consultation: 'Umów bezpłatną konsultację',
  caption: 'Nasz zespół podczas warsztatów planistycznych',
  quote: 'Dostarczali na czas, za każdym razem, i wcześnie mówili, gdy coś było trudne.',
  fileDescription: 'Profil firmy z referencjami i certyfikatami',
  plugin: 'Otwarte rekrutacje',
  sitemap: 'Mapa strony',
  sections: 'Sekcje tych stron',
  form: {
    header: 'Opowiedz nam o swoim projekcie',
    intro: 'Odpowiadamy w ciągu jednego dnia roboczego.',
    name: 'Imię i nazwisko',
    email: 'E-mail',
    phone: 'Telefon',
    website: 'Strona firmy',
    date: 'Preferowany termin rozpoczęcia',
    people: 'Wielkość zespołu',
    message: 'Twoja wiadomość',
    placeholder: 'Co powinniśmy wiedzieć?',
    topic: 'Temat',
    topics: ['Nowy produkt', 'Istniejący system', 'Coś innego'],
    contactBy: 'Jak mamy się z Tobą skontaktować?',
    channels: ['E-mail', 'Telefon', 'Rozmowa wideo'],
    interests: 'Usługi, które Cię interesują',
    company: 'Dane firmy',
    consent: 'Zgadzam się na wykorzystanie moich danych w celu odpowiedzi na to zapytanie.',
    hint: 'Nigdy nie udostępniamy Twoich danych.',
  },
}

const DE: KindsTexts = {
  more: 'Mehr',
  resources: 'Ressourcen',
  blog: 'Engineering-Blog',
  seeAll: 'Den ganzen Bereich ansehen',
  getInTouch: 'Kontakt aufnehmen',
  callUs: 'Anrufen',
  writeToUs: 'Schreiben Sie uns',
  iconButtonsText: 'Lieber persönlich? Wir antworten innerhalb eines Werktags.',
  consultation: 'Kostenlose Beratung vereinbaren',
  caption: 'Unser Team bei einem Planungsworkshop',
  quote: 'Sie haben jedes Mal pünktlich geliefert und früh gesagt, wenn etwas schwierig war.',
  fileDescription: 'Unternehmensprofil mit Referenzen und Zertifikaten',
  plugin: 'Offene Stellen',
  sitemap: 'Sitemap',
  sections: 'Abschnitte dieser Seiten',
  form: {
    header: 'Erzählen Sie uns von Ihrem Projekt',
    intro: 'Wir antworten innerhalb eines Werktags.',
    name: 'Ihr Name',
    email: 'E-Mail',
    phone: 'Telefon',
    website: 'Website Ihres Unternehmens',
    date: 'Gewünschter Starttermin',
    people: 'Teamgröße',
    message: 'Ihre Nachricht',
    placeholder: 'Was sollten wir wissen?',
    topic: 'Thema',
    topics: ['Neues Produkt', 'Bestehendes System', 'Etwas anderes'],
    contactBy: 'Wie sollen wir Sie kontaktieren?',
    channels: ['E-Mail', 'Telefon', 'Videoanruf'],
    interests: 'Leistungen, die Sie interessieren',
    company: 'Angaben zum Unternehmen',
    consent: 'Ich bin einverstanden, dass meine Daten zur Beantwortung dieser Anfrage verwendet werden.',
    hint: 'Wir geben Ihre Daten niemals weiter.',
  },
}

const TEXTS: Record<string, KindsTexts> = { en: EN, pl: PL, de: DE }

/** Texts of a language code; languages without their own fall back to English words. */
export const kindsTexts = (code: string): KindsTexts => TEXTS[code] ?? EN
