import { describe, expect, it } from 'vitest'
import { isPlainRelativePath } from '../../../src/deploy/output-files.js'
import {
  parsePendingRecord,
  parseTargetManifest,
  pathsInDoubt,
  planDeploy,
  renderPendingRecord,
  renderTargetManifest,
  stepOf,
} from '../../../src/deploy/plan.js'
import { parseDeploySpec } from '../../../src/deploy/target-spec.js'

const output = (entries: Record<string, string>) => new Map(Object.entries(entries))

describe('deploy plan', () => {
  it('orders hashed files, then pages, then site files, then latest.json', () => {
    const plan = planDeploy({
      files: output({
        '_site/builds/latest.json': 'l1',
        'index.html': 'h1',
        'pl/_payload.json': 'p1',
        '_site/assets/app-1.js': 'a1',
        '_site/data/initial-en-1.json': 'd1',
        'sitemap.xml': 's1',
        'sitemap-2.xml': 's2',
        _redirects: 'r1',
        'robots.txt': 'b1',
        '_site/builds/state.jsonl': 'st',
        '_site/builds/meta/x.json': 'm1',
      }),
      buildId: 'b1',
      manifest: undefined,
      keepBuilds: 3,
    })
    expect(plan.uploads).toEqual({
      hashed: ['_site/assets/app-1.js', '_site/data/initial-en-1.json'],
      pages: ['_site/builds/meta/x.json', 'index.html', 'pl/_payload.json'],
      'site files': ['_redirects', '_site/builds/state.jsonl', 'robots.txt', 'sitemap-2.xml', 'sitemap.xml'],
      latest: ['_site/builds/latest.json'],
    })
    expect(plan.next.builds).toBe(1)
    expect(stepOf('blog/sitemap.xml')).toBe('pages')
  })

  it('sends in each step the files the target does not hold before those it replaces', () => {
    const first = planDeploy({
      files: output({ 'index.html': 'h1', 'about/index.html': 'a1', 'sitemap.xml': 's1' }),
      buildId: 'b1',
      manifest: undefined,
      keepBuilds: 3,
    })
    // a new page the changed ones link to, a sitemap index naming a new part; `about` is unknown: it may be absent
    const second = planDeploy({
      files: output({
        'index.html': 'h2',
        'about/index.html': 'a2',
        'zeta/index.html': 'z1',
        'zeta/_payload.json': 'z1',
        'sitemap.xml': 's2',
        'sitemap-1.xml': 'p1',
      }),
      buildId: 'b2',
      manifest: first.next,
      unknown: new Set(['about/index.html']),
      keepBuilds: 3,
    })
    expect(second.uploads.pages).toEqual(['about/index.html', 'zeta/_payload.json', 'zeta/index.html', 'index.html'])
    expect(second.uploads['site files']).toEqual(['sitemap-1.xml', 'sitemap.xml'])
    expect(second.replaces).toEqual(new Set(['index.html', 'sitemap.xml']))
  })

  it('uploads only files whose hash changed', () => {
    const first = planDeploy({ files: output({ a: '1', b: '2' }), buildId: 'x', manifest: undefined, keepBuilds: 3 })
    const second = planDeploy({ files: output({ a: '1', b: '3' }), buildId: 'y', manifest: first.next, keepBuilds: 3 })
    expect(second.uploads.pages).toEqual(['b'])
    expect(second.deletes).toEqual([])
  })

  it('deletes a content-hashed file gone from the output only once keepBuilds builds went without it', () => {
    const old = '_site/assets/old-1a2b3c.js'
    let manifest = planDeploy({
      files: output({ a: '1', [old]: '9' }),
      buildId: 'b1',
      manifest: undefined,
      keepBuilds: 3,
    }).next
    const deletes: string[][] = []
    for (const id of ['b2', 'b3', 'b4']) {
      const plan = planDeploy({ files: output({ a: '1' }), buildId: id, manifest, keepBuilds: 3 })
      deletes.push(plan.deletes)
      manifest = plan.next
    }
    // b2 and b3 go without it (kept: tabs of b1 may still ask), b4 is the third build without it
    expect(deletes).toEqual([[], [], [old]])
    expect(manifest.files).toEqual(new Map([['a', '1']]))
    // the same build deployed again counts once
    const again = planDeploy({ files: output({ a: '1' }), buildId: 'b4', manifest, keepBuilds: 3 })
    expect(again.next.builds).toBe(manifest.builds)
  })

  // a page deleted in the CMS answered 200 on the target for two more deploys, though no tab needs it
  it('deletes a page, payload or sitemap gone from the output at once', () => {
    const gone = ['old/index.html', 'old/_payload.json', 'sitemap-2.xml', '_site/builds/meta/b1.json']
    const m1 = planDeploy({
      files: output({ 'index.html': '1', ...Object.fromEntries(gone.map((path) => [path, '2'])) }),
      buildId: 'b1',
      manifest: undefined,
      keepBuilds: 3,
    }).next
    const b2 = planDeploy({ files: output({ 'index.html': '1' }), buildId: 'b2', manifest: m1, keepBuilds: 3 })
    expect(b2.deletes).toEqual([...gone].sort())
    expect(b2.next.files).toEqual(new Map([['index.html', '1']]))
    expect(b2.next.gone).toEqual(new Map())
  })

  it('keeps a gone file that comes back, and forgets that it left', () => {
    const a = '_site/media/0123456789abcdef0123/a.jpg'
    const m1 = planDeploy({ files: output({ [a]: '1' }), buildId: 'b1', manifest: undefined, keepBuilds: 2 }).next
    const m2 = planDeploy({ files: output({}), buildId: 'b2', manifest: m1, keepBuilds: 2 }).next
    expect(m2.gone).toEqual(new Map([[a, 2]]))
    const back = planDeploy({ files: output({ [a]: '1' }), buildId: 'b3', manifest: m2, keepBuilds: 2 })
    expect(back.uploads.hashed).toEqual([])
    expect(back.next.gone).toEqual(new Map())
  })

  it('sends again what a deploy that did not finish may have changed, and deletes what it left in time', () => {
    const m1 = planDeploy({ files: output({ a: '1', b: '2' }), buildId: 'b1', manifest: undefined, keepBuilds: 2 }).next
    // the deploy of b2 sent a (changed), new and orphan, then failed: a, new and orphan are pending
    const orphan = '_site/data/orphan-1a2b.json'
    const failed = planDeploy({
      files: output({ a: '9', b: '2', new: '3', [orphan]: '4' }),
      buildId: 'b2',
      manifest: m1,
      keepBuilds: 2,
    })
    const unknown = pathsInDoubt(failed, new Set())
    expect([...unknown].sort()).toEqual([orphan, 'a', 'new'])
    // b3 takes a back to what the manifest says the target holds, and no longer has orphan
    const b3 = planDeploy({
      files: output({ a: '1', b: '2', new: '3' }),
      buildId: 'b3',
      manifest: m1,
      unknown,
      keepBuilds: 2,
    })
    expect(b3.uploads.pages).toEqual(['a', 'new'])
    expect(b3.deletes).toEqual([])
    // the orphan is in the manifest now, its content unknown, and goes as any content-hashed file gone from the output does
    expect(b3.next.gone).toEqual(new Map([[orphan, 2]]))
    expect(pathsInDoubt(b3, unknown)).toEqual(new Set(['a', 'new', orphan]))
    const b4 = planDeploy({
      files: output({ a: '1', b: '2', new: '3' }),
      buildId: 'b4',
      manifest: b3.next,
      keepBuilds: 2,
    })
    expect([b4.uploads.pages, b4.deletes]).toEqual([[], [orphan]])
    // a deploy that failed deleting: the file comes back, same bytes as the manifest says, and is sent
    const back = planDeploy({
      files: output({ a: '1', b: '2', new: '3', [orphan]: '4' }),
      buildId: 'b5',
      manifest: b3.next,
      unknown: new Set([orphan]),
      keepBuilds: 2,
    })
    expect(back.uploads.hashed).toEqual([orphan])
  })

  it('reads a pending record as untrusted', () => {
    const paths = new Set(['b/index.html', 'a', 'constructor'])
    expect(renderPendingRecord(paths)).toBe('{"format":1,"paths":["a","b/index.html","constructor"]}')
    expect(parsePendingRecord(JSON.parse(renderPendingRecord(paths)))).toEqual(paths)
    for (const bad of ['../x', '/abs', 'a//b', '', 5])
      expect(parsePendingRecord({ format: 1, paths: ['a', bad] }), JSON.stringify(bad)).toBeUndefined()
    for (const bad of [null, 'x', { format: 2, paths: [] }, { format: 1, paths: { a: 1 } }])
      expect(parsePendingRecord(bad), JSON.stringify(bad)).toBeUndefined()
  })

  it('reads a target manifest as untrusted', () => {
    expect(parseTargetManifest({ format: 1, buildId: 'x', builds: 1, files: { a: 'h' }, gone: {} })).toBeDefined()
    // what it writes reads back, paths that are names of object properties included
    const files = new Map([
      ['a', '1'],
      ['constructor', '2'],
      ['__proto__', '3'],
      ['toString', '4'],
    ])
    const first = planDeploy({ files, buildId: 'b1', manifest: undefined, keepBuilds: 2 })
    expect(first.uploads.pages).toEqual(['__proto__', 'a', 'constructor', 'toString'])
    const text = renderTargetManifest(first.next)
    expect(parseTargetManifest(JSON.parse(text))).toEqual(first.next)
    const gone = { ...first.next, files: new Map(), gone: new Map([...files.keys()].map((path) => [path, 1])) }
    expect(parseTargetManifest(JSON.parse(renderTargetManifest(gone)))?.gone).toEqual(gone.gone)
    // JSON as JSON.stringify writes it, whatever a path holds
    const odd = new Map([
      ['a "quoted"/index.html', 'h"1'],
      ['ząb\\ü/\u2028.html', 'h2'],
    ])
    const manifest = {
      format: 1 as const,
      buildId: 'b"3',
      builds: 4,
      files: odd,
      gone: new Map([['ząb\\ü/\u2028.html', 3]]),
    }
    expect(renderTargetManifest(manifest)).toBe(
      JSON.stringify({ ...manifest, files: Object.fromEntries(odd), gone: Object.fromEntries(manifest.gone) }),
    )
    expect(parseTargetManifest({ format: 1, buildId: 'x', builds: 1, files: { a: 5 }, gone: {} })).toBeUndefined()
    // a path that leaves the target's folder or prefix would be deleted there: the manifest is no manifest
    for (const path of ['../live/index.html', '/abs.html', 'a//b', 'a/./b', 'a\\b', 'a\u0000b', ''])
      for (const manifest of [
        { format: 1, buildId: 'x', builds: 1, files: { [path]: 'h' }, gone: {} },
        { format: 1, buildId: 'x', builds: 1, files: {}, gone: { [path]: 1 } },
      ])
        expect(parseTargetManifest(manifest), JSON.stringify(path)).toBeUndefined()
    // a page folder whose name holds a space (the page /a%20b) is one of the output's
    expect(
      parseTargetManifest({ format: 1, buildId: 'x', builds: 1, files: { 'a b/index.html': 'h' }, gone: {} }),
    ).toBeDefined()
    // a count no deploy writes would keep a file that left the output on the target for ever
    for (const counts of [
      { builds: -1, gone: {} },
      { builds: 1e300, gone: {} },
      { builds: 3, gone: { 'old.html': 1e300 } },
      { builds: 3, gone: { 'old.html': 4 } },
      { builds: 3, gone: { 'old.html': -2 } },
    ])
      expect(
        parseTargetManifest({ format: 1, buildId: 'x', files: {}, ...counts }),
        JSON.stringify(counts),
      ).toBeUndefined()
    expect(
      parseTargetManifest({ format: 1, buildId: 'x', files: {}, builds: 3, gone: { 'old.html': 3 } }),
    ).toBeDefined()
    expect(parseTargetManifest({ format: 2 })).toBeUndefined()
    expect(parseTargetManifest('nope')).toBeUndefined()
  })

  it('refuses paths that could leave the target', () => {
    expect(isPlainRelativePath('pl/o-nas/index.html')).toBe(true)
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a\\b', 'a/\u0000', './a', ''])
      expect(isPlainRelativePath(bad), bad).toBe(false)
  })

  it('parses deploy targets and names what is wrong', () => {
    expect(parseDeploySpec('dir:/srv/www')).toEqual({ kind: 'dir', path: '/srv/www' })
    expect(parseDeploySpec('s3://my-site/www/en')).toEqual({ kind: 's3', bucket: 'my-site', prefix: 'www/en' })
    expect(parseDeploySpec('s3://my-site')).toEqual({ kind: 's3', bucket: 'my-site', prefix: '' })
    expect(parseDeploySpec('command:netlify deploy --dir "$1"')).toEqual({
      kind: 'command',
      command: 'netlify deploy --dir "$1"',
    })
    expect(parseDeploySpec('s3://Bad_Bucket/x')).toEqual({ error: "'Bad_Bucket' is not an S3 bucket name" })
    expect(parseDeploySpec('s3://site/../x')).toHaveProperty('error')
    expect(parseDeploySpec('ftp://x')).toHaveProperty('error')
    expect(parseDeploySpec('dir:')).toHaveProperty('error')
  })

  it("refuses a dir: target starting with '~', which no shell expands there, instead of deploying into a folder named ~", () => {
    const error = { error: "'~' is not expanded after 'dir:': write the folder's full path ($HOME/…)" }
    expect(parseDeploySpec('dir:~/www')).toEqual(error)
    expect(parseDeploySpec('dir:~')).toEqual(error)
    expect(parseDeploySpec('dir:./~/www')).toEqual({ kind: 'dir', path: './~/www' })
  })
})
