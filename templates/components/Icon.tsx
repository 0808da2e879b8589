/**
 * Small SVG icons (24 x 24, `currentColor`) from the sprite public/icons.svg: contact kinds and social networks. Always
 * decorative: the link or text beside an icon carries its name. `iconOf` picks one for a
 * navigation entry from its `icon` field, else from its link (`tel:`, `mailto:`, a known host).
 */
import { isRecord } from 'typo3-headless-site/runtime'

/** The icons of public/icons.svg (one `<symbol>` each): drawn from that one cached file, not shipped in the page's JavaScript. */
export const ICON_NAMES = ['phone', 'mail', 'pin', 'link', 'rss', 'linkedin', 'github', 'youtube'] as const
export const ICON_SPRITE_URL = '/icons.svg'
const known = new Set<string>(ICON_NAMES)

const HOSTS: ReadonlyArray<[RegExp, string]> = [
  [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)github\.com$/, 'github'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
]

/** The icon for an entry: its `icon` field when we have it, else by link: `tel:` phone, `mailto:` mail. */
export function iconOf(entry: unknown): string | undefined {
  if (!isRecord(entry)) return undefined
  if (typeof entry.icon === 'string' && known.has(entry.icon)) return entry.icon
  const link = typeof entry.link === 'string' ? entry.link : typeof entry.href === 'string' ? entry.href : ''
  if (/^tel:/i.test(link)) return 'phone'
  if (/^mailto:/i.test(link)) return 'mail'
  try {
    const host = new URL(link).hostname
    return HOSTS.find(([re]) => re.test(host))?.[1]
  } catch {
    return undefined
  }
}

export function Icon({ name, className }: { name: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" className={className}>
      <use href={`${ICON_SPRITE_URL}#${known.has(name) ? name : 'link'}`} />
    </svg>
  )
}
