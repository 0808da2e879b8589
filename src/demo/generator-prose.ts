/**
 * Rich text for the generated site, made from a language's vocabulary (generator-words.ts) with a
 * seeded random source: the same seed gives the same text, and pages seeded differently share no
 * paragraph, as on a real site (a benchmark whose pages repeat their text measures its caches).
 * Every call draws the same count of random numbers in every language, so that the page's other
 * random choices (its links) stay the same across its translations.
 */
import type { ProseWords } from './generator-words.js'

export interface Prose {
  /**
   * One sentence; `link` (an `<a>` element) is cited at its end; `markup` allows `<strong>`/`<em>`; `long`
   * always joins two clauses, for text that stands alone (a bullet): one clause has only about 10^5 forms.
   */
  sentence(options?: { link?: string; markup?: boolean; long?: boolean }): string
  /** A `<p>` of `count` sentences citing `links`, spread over them (at most one a sentence). */
  paragraph(count: number, links?: readonly string[]): string
  /** A noun phrase, capitalised: a term for a definition list or a table row. */
  term(): string
}

/** Chances of a second clause and of an emphasised object in a sentence. */
const CLAUSE_CHANCE = 0.35
const EMPHASIS_CHANCE = 0.2

/** `text` with its first letter in upper case: `our team` -> `Our team`. */
export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

export function createProse(words: ProseWords, random: () => number): Prose {
  const pick = (list: readonly string[]): string => list[Math.floor(random() * list.length)] ?? ''
  const emphasise = (text: string, markup: boolean): string => {
    const draw = random()
    if (!markup || draw >= EMPHASIS_CHANCE) return text
    return draw < EMPHASIS_CHANCE / 2 ? `<strong>${text}</strong>` : `<em>${text}</em>`
  }
  const clause = (markup: boolean): string =>
    `${pick(words.subjects)} ${pick(words.verbs)} ${emphasise(pick(words.objects), markup)} ${pick(words.complements)}`

  const sentence: Prose['sentence'] = ({ link, markup = true, long = false } = {}) => {
    let text = clause(markup)
    const second = random() < CLAUSE_CHANCE || long
    const connector = pick(words.connectors)
    const more = clause(markup)
    if (second) text += `, ${connector} ${more}`
    const citation = pick(words.citations)
    if (link) text += `, ${citation.replace('{link}', link)}`
    return `${capitalise(text)}.`
  }

  return {
    sentence,
    paragraph(count, links = []) {
      const sentences = Array.from({ length: count }, (_, k) => {
        const at = links.length ? Math.floor((k * links.length) / count) : -1
        const cites = links.length > 0 && Math.floor(((k + 1) * links.length) / count) > at
        return sentence({ link: cites ? links[at] : undefined })
      })
      return `<p>${sentences.join(' ')}</p>`
    },
    term: () => capitalise(pick(words.objects)),
  }
}
