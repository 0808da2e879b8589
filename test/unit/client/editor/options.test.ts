import { describe, expect, it } from 'vitest'
import { applyOptions, loadOptions, saveOptions } from '../../../../src/client/editor/options.js'
import { PREVIEW_OPTION_DEFAULTS, PREVIEW_OPTIONS_KEY } from '../../../../src/shared/client-constants.js'

const memoryStorage = () => {
  const data = new Map<string, string>()
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data }
}

describe('editor preview options', () => {
  it('start from the defaults and store them as {id: boolean} JSON', () => {
    const storage = memoryStorage()
    const options = loadOptions(storage)
    expect(options).toEqual(PREVIEW_OPTION_DEFAULTS)
    expect(options).toMatchObject({
      'dim-inactive': true,
      'show-outline-on-link-hover': true,
      'show-location-indicators': true,
      'navigate-pages-in-typo3': true,
      'always-show-links': false,
      'always-show-outline': false,
    })
    saveOptions(storage, options)
    expect(JSON.parse(storage.data.get(PREVIEW_OPTIONS_KEY) ?? '')).toEqual(PREVIEW_OPTION_DEFAULTS)
  })

  it('read stored values over the defaults, ignoring junk', () => {
    const storage = memoryStorage()
    storage.setItem(
      PREVIEW_OPTIONS_KEY,
      JSON.stringify({ 'dim-inactive': false, 'always-show-links': 'yes', evil: true }),
    )
    expect(loadOptions(storage)).toEqual({ ...PREVIEW_OPTION_DEFAULTS, 'dim-inactive': false })
    storage.setItem(PREVIEW_OPTIONS_KEY, '{broken')
    expect(loadOptions(storage)).toEqual(PREVIEW_OPTION_DEFAULTS)
  })

  it('show enabled options as data-pce-<id>="1" on the body', () => {
    const attrs = new Map<string, string>([['data-pce-always-show-links', '1']])
    applyOptions(
      { setAttribute: (k, v) => void attrs.set(k, v), removeAttribute: (k) => void attrs.delete(k) },
      loadOptions(undefined),
    )
    expect(Object.fromEntries(attrs)).toEqual({
      'data-pce-dim-inactive': '1',
      'data-pce-show-outline-on-link-hover': '1',
      'data-pce-show-location-indicators': '1',
      'data-pce-navigate-pages-in-typo3': '1',
    })
  })
})
