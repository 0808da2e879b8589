import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parsePagesBody, parseTypo3Body } from '../../../src/publish/messages.js'
import { findSigner, isBearer, typo3Signature } from '../../../src/publish/signature.js'

const page = (over: Record<string, unknown> = {}, record: Record<string, unknown> = {}) => ({
  action: 'edit',
  identifier: 12,
  record: { uid: 12, pid: 3, l10n_parent: 0, sys_language_uid: 0, ...record },
  url: 'https://cms.example.com/page',
  site: 'main',
  workspace: 0,
  ...over,
})

describe('TYPO3 webhook messages', () => {
  it('names the page, by the uid of its default-language record for a translation', () => {
    expect(parseTypo3Body(page())).toMatchObject({ kind: 'pages', pages: ['12'] })
    expect(parseTypo3Body(page({ identifier: 40 }, { uid: 40, l10n_parent: 12, sys_language_uid: 1 }))).toMatchObject({
      kind: 'pages',
      pages: ['12'],
    })
  })
  it('also rebuilds the parent of a new page, so that menus list it', () => {
    expect(parseTypo3Body(page({ action: 'new' }))).toMatchObject({ pages: ['12', '3'] })
  })
  it('shows an action that is no word quoted and cut, so that it cannot make or stretch a log line', () => {
    expect(parseTypo3Body(page({ action: 'modified' }))).toMatchObject({ what: 'page 12 modified' })
    expect(parseTypo3Body(page({ action: 'edit\nevent 0 page 1 deleted' }))).toMatchObject({
      what: 'page 12 "edit\\nevent 0 page 1 deleted"',
    })
    const long = parseTypo3Body(page({ action: 'x'.repeat(100_000) })) as { what: string }
    expect(long.what.length).toBeLessThan(100)
  })
  it('publishes nothing for a workspace draft', () => {
    expect(parseTypo3Body(page({ workspace: 2 }))).toMatchObject({ kind: 'draft' })
  })
  it('builds every page when nav_hide changed: any menu may change', () => {
    expect(parseTypo3Body(page({ changedFields: ['nav_hide'] }))).toMatchObject({ kind: 'full' })
    expect(parseTypo3Body(page({ changedFields: ['title'] }))).toMatchObject({ kind: 'pages' })
  })

  // TYPO3 sends the page's database row as `record` (numbers as strings of digits, as its database driver gives
  // them) and the DataHandler's field array as `changedFields` (an object of field: new value)
  it('reads a message as TYPO3 sends it: a record of strings, changedFields as an object', () => {
    const translation = page({ action: 'modified', identifier: 40 }, { uid: '40', pid: '3', l10n_parent: '12' })
    expect(parseTypo3Body(translation)).toMatchObject({ kind: 'pages', pages: ['12'] })
    const created = page({ action: 'new' }, { uid: '12', pid: '3', l10n_parent: '0' })
    expect(parseTypo3Body(created)).toMatchObject({ kind: 'pages', pages: ['12', '3'] })
    expect(parseTypo3Body(page({ changedFields: { nav_hide: 1 } }))).toMatchObject({ kind: 'full' })
    expect(parseTypo3Body(page({ changedFields: { title: 'New', hidden: 0 } }))).toMatchObject({ kind: 'pages' })
    expect(parseTypo3Body(page({}, { l10n_parent: '1e3' }))).toMatchObject({ pages: ['12'] })
  })

  it('asks for the pages that show the file of a file message', () => {
    expect(
      parseTypo3Body({ storage: 1, identifier: '/user_upload/a.jpg', url: '/fileadmin/user_upload/a.jpg' }),
    ).toEqual({
      kind: 'pages',
      pages: ['file:/fileadmin/user_upload/a.jpg'],
      what: 'file /fileadmin/user_upload/a.jpg',
    })
    expect(
      parseTypo3Body({ storage: 1, identifier: '/a.jpg', url: 'https://cms.example/fileadmin/a.jpg' }),
    ).toMatchObject({ kind: 'pages', pages: ['file:https://cms.example/fileadmin/a.jpg'] })
    for (const url of ['', '/', '//cms.example/a.jpg', '/fileadmin/a b.jpg', `/${'a'.repeat(3000)}`])
      expect(parseTypo3Body({ storage: 1, identifier: '/a.jpg', url }), url).toHaveProperty('error')
  })
  it('refuses what it does not know', () => {
    expect(parseTypo3Body([])).toHaveProperty('error')
    expect(parseTypo3Body({ hello: 1 })).toHaveProperty('error')
    expect(parseTypo3Body(page({ identifier: 'x' }))).toHaveProperty('error')
  })
  it('refuses an identifier that is no page uid a build reads, and leaves out such a parent', () => {
    for (const identifier of [1e20, 12345678901234560, 0, -3, 1.5])
      expect(parseTypo3Body(page({ identifier })), String(identifier)).toEqual({
        error: 'a page modification needs "action", a page uid as "identifier" and a "record" object',
      })
    expect(parseTypo3Body(page({ action: 'new' }, { uid: 12, pid: 1e20 }))).toMatchObject({ pages: ['12'] })
    expect(parseTypo3Body(page({}, { uid: 12, l10n_parent: 1e20 }))).toMatchObject({ pages: ['12'] })
  })
})

describe('/hooks/pages bodies', () => {
  it('takes uids and paths, once each', () => {
    expect(parsePagesBody({ pages: [12, '12', '/pl/o-nas', '14'] })).toMatchObject({ pages: ['12', '/pl/o-nas', '14'] })
  })
  it('lists the first pages of a long list in its log line, and how many more', () => {
    const pages = Array.from({ length: 1000 }, (_, k) => `/pl/page-${k}`)
    const what = (parsePagesBody({ pages }) as { what: string }).what
    expect(what).toBe(`pages ${pages.slice(0, 50).join(', ')} and 950 more`)
    expect(parsePagesBody({ pages: [12, '/pl/o-nas'] })).toMatchObject({ what: 'pages 12, /pl/o-nas' })
  })
  it('names the bad item', () => {
    expect(parsePagesBody({ pages: [12, 'o-nas'] })).toEqual({
      error: 'pages[1] is neither a page uid nor a page path',
    })
    expect(parsePagesBody({ pages: ['/a\nb'] })).toHaveProperty('error')
    // what --only refuses is refused here, before it is acknowledged: a build would refuse its whole batch
    const refused = ['/../etc/passwd', '//x', '/a/./b', '/100%', '/a%2Fb', '/%2e%2e/x', '/_site/x', '/a\\b', '/%00']
    for (const item of [...refused, `/${'a'.repeat(2048)}`, '12345678901234567', 1e20, 0])
      expect(parsePagesBody({ pages: [1, item] }), String(item)).toEqual({
        error: 'pages[1] is neither a page uid nor a page path',
      })
    expect(parsePagesBody({ pages: [] })).toHaveProperty('error')
    expect(parsePagesBody({ page: [1] })).toHaveProperty('error')
  })
})

describe('signatures', () => {
  const webhook = { identifier: '4f2b1c9e-7d1a-4c55-9a0e-0e8f3c2b1a77', secret: 'a-secret' }
  const body = Buffer.from(JSON.stringify(page()))
  // as TYPO3 computes it: hash_hmac('sha256', sprintf('%s:%s', $identifier, $body), $secret)
  const typo3 = createHmac('sha256', webhook.secret).update(`${webhook.identifier}:${body.toString()}`).digest('hex')

  it('matches the TYPO3 signature and finds its webhook among several', () => {
    expect(typo3Signature(webhook, body)).toBe(typo3)
    const other = { identifier: 'other', secret: 'x' }
    expect(findSigner([other, webhook], typo3, body)).toBe(webhook)
    expect(findSigner([other, webhook], typo3.toUpperCase(), body)).toBe(webhook)
  })
  it('never takes a signature made with an empty secret', () => {
    const unset = { identifier: webhook.identifier, secret: '' }
    expect(findSigner([unset], typo3Signature(unset, body), body)).toBeUndefined()
  })
  it('refuses a missing, malformed, wrong or foreign signature', () => {
    expect(findSigner([webhook], undefined, body)).toBeUndefined()
    expect(findSigner([webhook], 'abc', body)).toBeUndefined()
    expect(
      findSigner(
        [webhook],
        typo3.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        body,
      ),
    ).toBeUndefined()
    expect(findSigner([webhook], typo3, Buffer.concat([body, Buffer.from(' ')]))).toBeUndefined()
    expect(findSigner([{ ...webhook, identifier: 'another-id' }], typo3, body)).toBeUndefined()
  })
  it('checks bearer tokens', () => {
    expect(isBearer('t0k', 'Bearer t0k')).toBe(true)
    expect(isBearer('t0k', 'bearer t0k')).toBe(true)
    expect(isBearer('t0k', 'Bearer t0K')).toBe(false)
    expect(isBearer(undefined, 'Bearer ')).toBe(false)
    expect(isBearer('t0k', undefined)).toBe(false)
  })
})
