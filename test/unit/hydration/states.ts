/** Pages and render states for the hydration plan and the browser's template loader tests. */
import type { TemplateState } from '../../../src/hydration/plan.js'
import type { PageData } from '../../../src/shared/types.js'

export const element = (id: number, type: string, content: Record<string, unknown> = {}) => ({ id, type, content })

export const page = (content: unknown, backendLayout?: unknown): PageData =>
  ({
    id: 1,
    title: 'P',
    slug: '/p',
    meta: {},
    appearance: backendLayout === undefined ? {} : { backendLayout },
    content,
  }) as unknown as PageData

/** A render state of `page` in `locale` (default locale `en`). */
export const at = (target: PageData | null, locale = 'en', editorPreview = false): TemplateState => ({
  page: target,
  locale,
  editorPreview,
  site: { i18n: { default: 'en' } },
})
