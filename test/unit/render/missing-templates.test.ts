import { describe, expect, it } from 'vitest'
import {
  createMissingTemplates,
  describeMissingTemplate,
  missingTemplateNotes,
  templateFileFor,
} from '../../../src/render/missing-templates.js'

describe('missing templates', () => {
  it('names the file that would be used', () => {
    expect(templateFileFor({ kind: 'content', name: 'text_media' })).toBe('templates/content/TextMedia.tsx')
    expect(templateFileFor({ kind: 'layout', name: 'pagets__landing' })).toBe('templates/layouts/PagetsLanding.tsx')
    expect(templateFileFor({ kind: 'content', name: '__' })).toBe('')
    expect(templateFileFor({ kind: 'content', name: '1st' })).toBe('')
  })

  it('counts each layout and type over pages, keeps the first page in path order, and says what is new', () => {
    const missing = createMissingTemplates()
    const first = missing.add('/pl/o-nas', [
      { kind: 'content', name: 'textpic' },
      { kind: 'content', name: 'textpic' },
      { kind: 'layout', name: 'landing' },
    ])
    expect(first.map((m) => m.name)).toEqual(['textpic', 'landing'])
    expect(missing.add('/about-us', [{ kind: 'content', name: 'textpic' }])).toEqual([])
    expect(missing.list()).toEqual([
      { kind: 'layout', name: 'landing', file: 'templates/layouts/Landing.tsx', count: 1, firstPath: '/pl/o-nas' },
      { kind: 'content', name: 'textpic', file: 'templates/content/Textpic.tsx', count: 3, firstPath: '/about-us' },
    ])
    expect(missingTemplateNotes(missing)).toEqual([
      'backend layout "landing" has no template (add templates/layouts/Landing.tsx): 1 page rendered with Default, first on /pl/o-nas',
      'content element type "textpic" has no template (add templates/content/Textpic.tsx): 3 elements rendered with Default, first on /about-us',
    ])
  })

  it('quotes names from the API and keeps the list short when an API sends a new type per element', () => {
    const missing = createMissingTemplates()
    const hostile = `x\n${'y'.repeat(500)}`
    missing.add('/', [{ kind: 'content', name: hostile }])
    const [line] = missingTemplateNotes(missing)
    expect(line).not.toContain('\n')
    expect(line?.length).toBeLessThan(300)
    for (let i = 0; i < 1000; i++) missing.add('/', [{ kind: 'content', name: `t${i}` }])
    expect(missing.list().length).toBeLessThanOrEqual(100)
    expect(missingTemplateNotes(missing).at(-1)).toMatch(/^\d+ more uses of layouts or content element types/)
  })

  it('reads as a first sighting in preview', () => {
    const [entry] = createMissingTemplates().add('/x', [{ kind: 'layout', name: 'shop' }])
    expect(entry && describeMissingTemplate(entry, { count: false })).toBe(
      'backend layout "shop" has no template (add templates/layouts/Shop.tsx): rendered with Default on /x',
    )
  })
})
