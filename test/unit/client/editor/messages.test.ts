import { describe, expect, it } from 'vitest'
import { readIncoming, toRecordUrl, toUid } from '../../../../src/client/editor/messages.js'

describe('editor preview messages (pce-*)', () => {
  it('accept pce-scroll-to-uid with a positive uid only', () => {
    expect(readIncoming({ type: 'pce-scroll-to-uid', uid: 12 })).toEqual({ type: 'pce-scroll-to-uid', uid: 12 })
    expect(readIncoming({ type: 'pce-scroll-to-uid', uid: '12' })).toEqual({ type: 'pce-scroll-to-uid', uid: 12 })
    expect(readIncoming({ type: 'pce-scroll-to-uid', uid: -1 })).toBeUndefined()
    expect(readIncoming({ type: 'pce-scroll-to-uid', uid: '1); alert(1' })).toBeUndefined()
    expect(readIncoming({ type: 'other', uid: 1 })).toBeUndefined()
    expect(readIncoming('pce-scroll-to-uid')).toBeUndefined()
    expect(toUid('7')).toBe(7)
    expect(toUid('')).toBeUndefined()
  })

  it('build the backend record link from the template, safe schemes only', () => {
    expect(toRecordUrl('https://cms.test/typo3/record/edit?edit[tt_content][__id__]=edit', 5)).toBe(
      'https://cms.test/typo3/record/edit?edit[tt_content][5]=edit',
    )
    expect(toRecordUrl('/typo3/edit/__id__', 5)).toBe('/typo3/edit/5')
    expect(toRecordUrl('javascript:alert(__id__)', 5)).toBeUndefined()
    expect(toRecordUrl('//evil.test/__id__', 5)).toBeUndefined()
    expect(toRecordUrl(undefined, 5)).toBeUndefined()
  })
})
