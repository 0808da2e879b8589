/**
 * The content elements of the every-kind generated site: one entry per variant of every
 * content type the templates handle (templates/content/*), each in the page's language.
 * generator-kinds.ts spreads them over the pages and gives them their header layouts.
 */
import type { NavEntry } from '../shared/types.js'
import type { KindsTexts } from './generator-kinds-text.js'
import { DOCUMENT, fileRef, gallery } from './generator-parts.js'
import type { GeneratedTexts } from './generator-text.js'

export interface KindsContext {
  texts: GeneratedTexts
  words: KindsTexts
  /** A page's title, path and navigation entry by index. */
  title(index: number): string
  path(index: number): string
  nav(index: number, extra?: Partial<NavEntry>): NavEntry
  /** The uid of a page's first content element, which every page has: what a section link may point to. */
  firstElement(index: number): number
  /** An image of fileadmin/images by number (wraps around). */
  image(n: number): string
  /** Indices of a few other pages of the site. */
  others: readonly number[]
}

/** An element before its header: `headed` is false for types whose templates show no header. */
export interface KindsElement {
  type: string
  content: Record<string, unknown>
  layout?: string
  frameClass?: string
  headed?: boolean
  /** Records of a shortcut: they get header layouts of their own, in order. */
  shortcut?: KindsElement[]
}

const imageFile = (ctx: KindsContext, n: number, alt: string, caption = '') => {
  const file = fileRef(ctx.image(n), alt)
  if (file.properties && caption) file.properties.description = caption
  return file
}

const paragraphs = (ctx: KindsContext, n: number) =>
  Array.from({ length: 2 }, (_, k) => `<p>${ctx.texts.sentences[(n + k) % ctx.texts.sentences.length]}</p>`).join('')

const menuOf = (ctx: KindsContext, withExtras = false) =>
  ctx.others.map((i, k) =>
    ctx.nav(i, withExtras ? { abstract: ctx.texts.sentences[k % ctx.texts.sentences.length], media: [] } : {}),
  )

function mediaText(ctx: KindsContext, n: number, horizontal: string, vertical: string, files: number): KindsElement {
  const images = Array.from({ length: files }, (_, k) => imageFile(ctx, n + k, ctx.title(ctx.others[k] ?? 0)))
  return {
    type: n % 2 ? 'textpic' : 'textmedia',
    content: {
      bodytext: paragraphs(ctx, n),
      gallery: gallery(images, horizontal, vertical),
      enlargeImageOnClick: false,
    },
  }
}

const table = (ctx: KindsContext, position: number, striped: boolean): KindsElement => ({
  type: 'table',
  content: {
    tableCaption: striped ? '' : ctx.texts.table.caption,
    tableHeaderPosition: position,
    tableClass: striped ? 'striped' : '',
    tableTfoot: striped ? '0' : '1',
    cols: 3,
    bodytext: [
      [...ctx.texts.table.columns],
      ...ctx.texts.topics.slice(0, 4).map((topic, k) => [topic, `${12 + k * 7}%`, `${61 + k * 9}%`]),
    ],
  },
})

const uploads = (ctx: KindsContext, displayInformation: string): KindsElement => {
  const document = fileRef(DOCUMENT, ctx.words.fileDescription, 0, 0)
  if (document.properties) document.properties.description = ctx.words.fileDescription
  return {
    type: 'uploads',
    content: {
      media: displayInformation === '2' ? [imageFile(ctx, 3, ctx.words.caption), document] : [document],
      target: '',
      displayInformation,
      displayFileSizeInformation: '1',
      displayDescription: displayInformation === '0' ? '0' : '1',
    },
  }
}

function form(ctx: KindsContext): KindsElement {
  const f = ctx.words.form
  const field = (type: string, identifier: string, label: string, extra: Record<string, unknown> = {}) => ({
    type,
    identifier,
    name: `tx_form[${identifier}]`,
    label,
    ...extra,
  })
  const required = { validators: [{ identifier: 'NotEmpty' }] }
  const options = (list: readonly string[]) => ({ options: Object.fromEntries(list.map((o, k) => [`o${k}`, o])) })
  return {
    type: 'form_formframework',
    content: {
      link: { href: '/contact-form' },
      form: {
        id: 'project-request',
        elements: [
          field('StaticText', 'intro', '', { properties: { text: f.intro } }),
          field('GridRow', 'row', '', {
            elements: [field('Text', 'name', f.name, required), field('Email', 'email', f.email, required)],
          }),
          field('Telephone', 'phone', f.phone, { properties: { elementDescription: f.hint } }),
          field('Fieldset', 'company', f.company, {
            elements: [
              field('Url', 'website', f.website),
              field('Number', 'people', f.people),
              field('Date', 'start', f.date),
            ],
          }),
          field('SingleSelect', 'topic', f.topic, { properties: options(f.topics) }),
          field('MultiSelect', 'interests', f.interests, { properties: options(ctx.texts.topics.slice(0, 4)) }),
          field('RadioButton', 'contact', f.contactBy, { ...required, properties: options(f.channels) }),
          field('MultiCheckbox', 'channels', f.interests, { properties: options(f.channels) }),
          field('Textarea', 'message', f.message, {
            ...required,
            properties: { fluidAdditionalAttributes: { placeholder: f.placeholder } },
          }),
          field('Checkbox', 'consent', f.consent, required),
          field('Hidden', 'source', '', { defaultValue: 'generated' }),
          field('Honeypot', 'website-check', ''),
        ],
      },
    },
  }
}

/** Every variant once; the order mixes long and short elements so that each page gets some of both. */
export function kindsCatalogue(ctx: KindsContext): KindsElement[] {
  const w = ctx.words
  const sitemapTree = ctx.others.slice(0, 2).map((i, k) => ctx.nav(i, { children: [ctx.nav(ctx.others[k + 2] ?? 0)] }))
  return [
    {
      type: 'text',
      content: {
        bodytext: `${paragraphs(ctx, 0)}<blockquote><p>${w.quote}</p></blockquote><ul><li>${ctx.texts.topics[0]}</li><li>${ctx.texts.topics[1]}</li></ul><ol><li>${ctx.texts.topics[2]}</li><li>${ctx.texts.topics[3]}</li></ol><p><strong>${ctx.texts.facts[0]?.[0]}</strong>: <em>${ctx.texts.facts[0]?.[1]}</em>. <a href="${ctx.path(ctx.others[0] ?? 0)}">${ctx.title(ctx.others[0] ?? 0)}</a></p>`,
      },
    },
    mediaText(ctx, 1, 'right', 'intext', 1),
    { type: 'bullets', content: { bulletsType: 0, bodytext: ctx.texts.sentences.slice(0, 3) } },
    { type: 'menu_pages', content: { menu: menuOf(ctx) } },
    table(ctx, 1, false),
    mediaText(ctx, 2, 'left', 'intext', 1),
    {
      type: 'html',
      content: { bodytext: `<p><strong>${ctx.texts.headers.hours}</strong>: 8:00–17:00</p>` },
      headed: false,
    },
    { type: 'menu_subpages', content: { menu: menuOf(ctx, true) }, layout: 'menu-with-cards' },
    form(ctx),
    { type: 'bullets', content: { bulletsType: 1, bodytext: ctx.texts.sentences.slice(3, 6) } },
    { type: 'div', content: {}, frameClass: 'ruler-before', headed: false },
    mediaText(ctx, 3, 'center', 'above', 2),
    { type: 'menu_abstract', content: { menu: menuOf(ctx, true) } },
    uploads(ctx, '0'),
    { type: 'header', content: {} },
    { type: 'bullets', content: { bulletsType: 2, bodytext: ctx.texts.facts.map(([t, v]) => [t, v]) } },
    { type: 'menu_sitemap', content: { menu: sitemapTree } },
    mediaText(ctx, 4, 'center', 'below', 3),
    {
      type: 'menu_categorized_content',
      content: { menu: ctx.texts.topics.slice(0, 3).map((h, k) => ({ uid: k + 1, header: h })) },
    },
    uploads(ctx, '1'),
    {
      type: 'shortcut',
      content: {},
      headed: false,
      shortcut: [
        { type: 'text', content: { bodytext: paragraphs(ctx, 2) } },
        { type: 'bullets', content: { bulletsType: 0, bodytext: ctx.texts.sentences.slice(5, 7) } },
      ],
    },
    {
      type: 'menu_section',
      content: {
        menu: ctx.others
          .slice(0, 2)
          .map((i) => ({ ...ctx.nav(i), content: [{ uid: ctx.firstElement(i), header: w.sections }] })),
      },
    },
    table(ctx, 2, true),
    {
      type: 'image',
      content: {
        gallery: {
          ...gallery([imageFile(ctx, 5, w.caption, w.caption)], 'center', 'above'),
          border: { enabled: true, width: 2, padding: 0 },
        },
      },
    },
    { type: 'menu_categorized_pages', content: { menu: menuOf(ctx, true) } },
    uploads(ctx, '2'),
    { type: 'menu_recently_updated', content: { menu: menuOf(ctx) } },
    { type: 'list', content: { pluginData: { items: 3 } } },
    { type: 'menu_related_pages', content: { menu: menuOf(ctx) } },
    {
      type: 'menu_section_pages',
      content: {
        menu: ctx.others
          .slice(1, 3)
          .map((i) => ({ ...ctx.nav(i), content: [{ uid: ctx.firstElement(i), header: w.sections }] })),
      },
    },
    { type: 'menu_sitemap_pages', content: { menu: sitemapTree.slice(0, 1) } },
    { type: 'news_pi1', content: { items: [] }, headed: false },
  ]
}
