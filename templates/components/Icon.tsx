/**
 * Small inline SVG icons (24 x 24, `currentColor`): contact kinds and social networks. Always
 * decorative: the link or text beside an icon carries its name. `iconOf` picks one for a
 * navigation entry from its `icon` field, else from its link (`tel:`, `mailto:`, a known host).
 */
import type { ReactNode } from 'react'
import { isRecord } from 'site/runtime'

const line = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const

const ICONS: Record<string, ReactNode> = {
  phone: (
    <path
      fill="currentColor"
      d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25c1.1.37 2.3.57 3.6.57a1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z"
    />
  ),
  mail: (
    <g {...line}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 7 8.5 6 8.5-6" />
    </g>
  ),
  pin: (
    <g {...line}>
      <path d="M12 21s-7-6.1-7-11.4A7 7 0 0 1 19 9.6C19 14.9 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </g>
  ),
  link: (
    <g {...line}>
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
      <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
    </g>
  ),
  rss: (
    <g {...line}>
      <path d="M5 11a8 8 0 0 1 8 8M5 5a14 14 0 0 1 14 14" />
      <circle cx="6" cy="18" r="1.2" fill="currentColor" />
    </g>
  ),
  linkedin: (
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M5 2h14a3 3 0 0 1 3 3v14a3 3 0 0 1-3 3H5a3 3 0 0 1-3-3V5a3 3 0 0 1 3-3zm1 7.5V18h3V9.5zm1.5-4a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5zM11 9.5V18h3v-4.3c0-1.1.6-1.9 1.6-1.9s1.4.8 1.4 1.9V18h3v-5c0-2.4-1.1-3.75-3.3-3.75-1.3 0-2.2.6-2.7 1.4V9.5z"
    />
  ),
  github: (
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.8c-2.8.6-3.4-1.2-3.4-1.2-.4-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.3 1.1 2.9.8.1-.6.3-1.1.6-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2z"
    />
  ),
  youtube: (
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M6 5h12a4 4 0 0 1 4 4v6a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V9a4 4 0 0 1 4-4zm4 4.2v5.6l4.8-2.8z"
    />
  ),
}

const HOSTS: ReadonlyArray<[RegExp, string]> = [
  [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)github\.com$/, 'github'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
]

/** The icon for an entry: its `icon` field when we have it, else by link: `tel:` phone, `mailto:` mail. */
export function iconOf(entry: unknown): string | undefined {
  if (!isRecord(entry)) return undefined
  if (typeof entry.icon === 'string' && entry.icon in ICONS) return entry.icon
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
  const icon = ICONS[name] ?? ICONS.link
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" className={className}>
      {icon}
    </svg>
  )
}
