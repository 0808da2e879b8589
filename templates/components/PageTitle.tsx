/**
 * Every page gets one h1. Content headers keep the level the editor chose (layout 1 = h1,
 * default = h2); when no element of the page is an h1, the page title is one, visually hidden.
 */
import { headingLevel, isRecord, type PageData } from 'typo3-headless-site/runtime'

const hasH1 = (elements: unknown): boolean =>
  Array.isArray(elements) &&
  elements.some((el) => {
    if (!isRecord(el) || !isRecord(el.content)) return false
    const { header, headerLayout, shortcut } = el.content
    return (typeof header === 'string' && header.trim() !== '' && headingLevel(headerLayout) === 1) || hasH1(shortcut)
  })

export function PageTitle({ page }: { page: PageData }) {
  const title = typeof page.meta?.title === 'string' ? page.meta.title : ''
  if (title === '' || Object.values(page.content ?? {}).some(hasH1)) return null
  return <h1 className="visually-hidden">{title}</h1>
}
