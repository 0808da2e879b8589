/**
 * Pure: a digest of what other pages can show of a page. A menu, a teaser or a breadcrumb of another page
 * shows a linked page's title, subtitle, abstract, media or path, all of which are page properties: everything
 * of its answer but its content elements (`content`). An `--only` build asks again for the pages linking to a
 * page it rebuilds only when this digest changed (see build/incremental/only.ts): an edit of a page's content elements,
 * the most common edit, changes no other page.
 *
 * Computed from the answer as parsed (before it is prepared), by the render worker for every page and by the
 * build's thread for the pages `--only` names: the same bytes give the same digest.
 * Example: { id: 3, meta: { title: 'Team' }, content: {…} } -> '4b9b0c1f0e2d7a31' whatever its content.
 */
import { createHash } from 'node:crypto'
import { MAX_DATA_DEPTH } from '../shared/constants.js'
import { withinDepth } from '../shared/values.js'

export function linkDigest(page: Readonly<Record<string, unknown>>): string {
  const { content: _content, ...properties } = page
  return createHash('sha256')
    .update(JSON.stringify(withinDepth(properties, MAX_DATA_DEPTH)))
    .digest('hex')
    .slice(0, 16)
}
