/**
 * Links from API data. Only safe hrefs become `<a>` (src/shared/url.ts); anything else
 * renders as a `<span>` with the same text. External links get `rel="noopener"`.
 */
import type { AnchorHTMLAttributes, ReactNode } from 'react'
import { classifyLink, isSiteLink } from '../shared/links.js'
import { useSite } from './context.js'
import { isRecord } from './element.js'

const TARGET_RE = /^_?[A-Za-z][\w-]*$/

export interface ResolvedHref {
  href: string
  external: boolean
}

/**
 * The href to render for a link value from the API, or null when it must not be a link.
 * Same-site links come back normalised: `https://www.example.com/pl/` (baseUrl on that origin) -> `/pl`.
 */
export function resolveHref(value: unknown, baseUrl?: string): ResolvedHref | null {
  const kind = classifyLink(value, baseUrl)
  if (kind.type === 'unsafe' || typeof value !== 'string') return null
  if (isSiteLink(kind)) return { href: kind.path + kind.search + kind.hash, external: false }
  return { href: value.trim(), external: kind.type === 'external' }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/** Visible text of a typolink result: `linkText` unless it is a raw `t3://` parameter, else `title`. */
export function linkText(link: unknown): string {
  if (!isRecord(link)) return ''
  const candidate = text(link.linkText)
  if (candidate && !candidate.startsWith('t3://')) return candidate
  return text(link.title) ?? text(link.navigationTitle) ?? ''
}

/** `rel` with `noopener` added once: undefined -> 'noopener', 'me noopener' stays. */
function withNoopener(rel: string | undefined): string {
  const values = rel ? rel.split(/\s+/).filter(Boolean) : []
  return values.includes('noopener') ? values.join(' ') : [...values, 'noopener'].join(' ')
}

export interface SafeLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path or URL, or a typolink result (`{ href, target, title, class }`). */
  href: unknown
  children?: ReactNode
}

export function SafeLink(props: SafeLinkProps) {
  const { href, target, rel, title, className, children } = props
  const { site } = useSite()
  const link = isRecord(href) ? href : undefined
  const resolved = resolveHref(link ? link.href : href, site.baseUrl)
  const content = children ?? linkText(link)
  const cls = className ?? text(link?.class)
  if (!resolved) return <span className={cls}>{content}</span>
  const targetValue = target ?? text(link?.target)
  const safeTarget = targetValue && TARGET_RE.test(targetValue) ? targetValue : undefined
  const relValue = resolved.external || safeTarget === '_blank' ? withNoopener(rel) : rel
  // Other anchor attributes first, then ours (attribute order as in the markup templates write).
  const anchor: Record<string, unknown> = {}
  for (const key in props) if (!OWN_PROPS.has(key)) anchor[key] = props[key as keyof SafeLinkProps]
  anchor.href = resolved.href
  anchor.target = safeTarget
  anchor.rel = relValue
  anchor.title = title ?? text(link?.title)
  anchor.className = cls
  return <a {...anchor}>{content}</a>
}

// The props SafeLink reads itself; every other prop goes to the anchor as it is.
const OWN_PROPS = new Set(['href', 'target', 'rel', 'title', 'className', 'children'])
