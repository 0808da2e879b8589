import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../../src/config/defaults.js'
import { resolvePublish } from '../../../src/config/resolve.js'
import { validateUserConfig } from '../../../src/config/validate.js'
import { statusHtml } from '../../../src/publish/status.js'

describe('publish options', () => {
  it('fills the defaults, per site, a site overriding the top level', () => {
    const [one] = resolvePublish({ publish: { token: 't' } }, 'site.config.ts')
    expect(one).toEqual({ ...DEFAULTS.publish, token: 't' })
    expect(one).toMatchObject({ quietMs: 1000, maxWaitMs: 10_000, reconcileMinutes: 360, deployTimeoutMs: 1_800_000 })
    const sites = resolvePublish(
      {
        publish: { quietMs: 500, deploy: 'dir:/srv/a' },
        sites: [{ hostname: 'a.example.com' }, { hostname: 'b.example.com', publish: { deploy: 's3://b-site/www' } }],
      },
      'site.config.ts',
    )
    expect(sites.map((s) => [s.quietMs, s.deploy])).toEqual([
      [500, 'dir:/srv/a'],
      [500, 's3://b-site/www'],
    ])
  })

  it('refuses two sites deploying to one folder or S3 prefix (or one inside the other); a command may be shared', () => {
    const sites = (top: string, second?: string) =>
      resolvePublish(
        {
          publish: { deploy: top },
          sites: [
            { hostname: 'a.example.com' },
            { hostname: 'b.example.com', ...(second ? { publish: { deploy: second } } : {}) },
          ],
        },
        'site.config.ts',
      )
    expect(() => sites('dir:/srv/www/')).toThrow(
      "  - sites[1].publish.deploy: 'dir:/srv/www/' is also where sites[0] (a.example.com) deploys to: each site's deploy would replace or delete the other's files",
    )
    expect(() => sites('dir:/srv/www', 'dir:/srv/www/de')).toThrow(
      /sites\[1\]\.publish\.deploy: 'dir:\/srv\/www\/de' is also/,
    )
    // a folder named absolute is the one its name relative to the working folder (the project root) names
    expect(() => sites(`dir:${join(process.cwd(), 'live')}`, 'dir:./live/')).toThrow(
      /sites\[1\]\.publish\.deploy: 'dir:\.\/live\/' is also where sites\[0\]/,
    )
    expect(() => sites('s3://www-site/live', 's3://www-site')).toThrow(
      /sites\[1\]\.publish\.deploy: 's3:\/\/www-site' is also/,
    )
    expect(sites('s3://www-site/com', 's3://www-site/de').map((s) => s.deploy)).toEqual([
      's3://www-site/com',
      's3://www-site/de',
    ])
    expect(sites('dir:/srv/www', 's3://www-site').map((s) => s.deploy)).toEqual(['dir:/srv/www', 's3://www-site'])
    // a command is given each site's output folder ($1): one command for both is a choice, not a clash
    expect(sites('command:./deploy.sh "$1"').map((s) => s.deploy)).toEqual([
      'command:./deploy.sh "$1"',
      'command:./deploy.sh "$1"',
    ])
  })

  it('names every bad option', () => {
    const issues = validateUserConfig({
      publish: {
        webhooks: [{ identifier: '', secret: 'x' }],
        quietMs: 0,
        deploy: 'ftp://x',
        reconcileMinutes: 1.5,
        secret: 'x',
      },
    })
    expect(issues.map((i) => i.path)).toEqual([
      'publish.webhooks',
      'publish.quietMs',
      'publish.deploy',
      'publish.reconcileMinutes',
      'publish.secret',
    ])
    expect(
      validateUserConfig({
        publish: {
          webhooks: [
            { identifier: 'a', secret: 'x' },
            { identifier: 'a', secret: 'y' },
          ],
        },
      }),
    ).toEqual([{ path: 'publish.webhooks', message: 'each webhook identifier may appear once' }])
    // TYPO3 signs with the identifier and secret as shown: one read from a file with its newline, or pasted with a
    // space, would have every webhook refused 401 as wrongly signed
    for (const [webhook, field] of [
      [{ identifier: 'a', secret: 'x\n' }, 'secret'],
      [{ identifier: ' a', secret: 'x' }, 'identifier'],
    ] as const)
      expect(validateUserConfig({ publish: { webhooks: [{ identifier: 'b', secret: 'y' }, webhook] } })).toEqual([
        {
          path: 'publish.webhooks',
          message: `webhook a: its ${field} begins or ends with a space or line break (read from a file with its newline?), so no request TYPO3 signs would match`,
        },
      ])
    // an unset secret is site publish's to refuse: a build, deploy or preview reads the config without it
    expect(validateUserConfig({ publish: { webhooks: [{ identifier: 'a', secret: '' }] } })).toEqual([])
    // a year at most: a longer period overflowed the timer (a reconcile every millisecond) and the status dates
    expect(validateUserConfig({ publish: { reconcileMinutes: 525_600 } })).toEqual([])
    expect(validateUserConfig({ publish: { reconcileMinutes: 525_601 } })).toEqual([
      { path: 'publish.reconcileMinutes', message: 'expected a whole number of minutes from 1 to 525600 (a year)' },
    ])
    // a day at most, a second at least: a timer of more than 2^31 ms would fire at once
    expect(validateUserConfig({ publish: { deployTimeoutMs: 86_400_000 } })).toEqual([])
    for (const deployTimeoutMs of [999, 86_400_001, 2 ** 31, 1.5, '60000'])
      expect(validateUserConfig({ publish: { deployTimeoutMs } }), String(deployTimeoutMs)).toEqual([
        {
          path: 'publish.deployTimeoutMs',
          message: 'expected a whole number of milliseconds from 1000 to 86400000 (a day)',
        },
      ])
    // a token no request can send (a secret read from a file with its newline) is refused, not a 401 for every call
    expect(validateUserConfig({ publish: { token: 'aB3-._~+/=' } })).toEqual([])
    // empty (its variable unset): only site publish refuses it, other commands read the config without it
    expect(validateUserConfig({ publish: { token: '' } })).toEqual([])
    for (const token of ['secret\n', 'two words', 'zaż\u00f3łć', 7])
      expect(validateUserConfig({ publish: { token } }), JSON.stringify(token)).toEqual([
        {
          path: 'publish.token',
          message:
            'expected a token of visible ASCII characters, without spaces or line breaks (no Authorization header holds them)',
        },
      ])
    expect(() => resolvePublish({ publish: { quietMs: 20_000 } }, 'site.config.ts')).toThrow(
      /publish.quietMs: 20000 is longer than publish.maxWaitMs/,
    )
  })
})

describe('status page', () => {
  it('escapes what it shows', () => {
    const html = statusHtml({
      site: 'www.example.com',
      outDir: '/srv/out',
      deploy: null,
      accepting: true,
      journalWritable: true,
      pending: 0,
      building: false,
      queuedAppends: 0,
      journalBytes: 0,
      retryAt: null,
      lastReconcile: null,
      nextReconcile: null,
      scheduled: { pages: 0, next: null },
      publishCount: { ok: 0, failed: 1 },
      publishes: [
        {
          ok: false,
          pages: ['/<script>alert(1)</script>'],
          full: false,
          events: 1,
          changed: 0,
          filesUploaded: 0,
          deleted: 0,
          buildMs: 0,
          deployMs: 0,
          latencyMs: 5,
          finishedAt: '2026-11-26T00:00:00.000Z',
          error: 'API said <b>no</b>',
        },
      ],
    })
    expect(html).not.toContain('<script>')
    expect(html).toContain('/&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('API said &lt;b&gt;no&lt;/b&gt;')
  })

  it("shows no edit-to-live time for the publisher's own publishes (the check at start, a reconcile), which carry no edit", () => {
    const own = { ok: true, changed: 0, filesUploaded: 4, deleted: 0, buildMs: 1, deployMs: 1, latencyMs: 4920 }
    const finishedAt = '2026-11-26T00:00:00.000Z'
    const html = statusHtml({
      ...{ site: 'www.example.com', outDir: '/srv/out', deploy: null, accepting: true, journalWritable: true },
      ...{ pending: 0, building: false, queuedAppends: 0, journalBytes: 0, retryAt: null },
      ...{ lastReconcile: null, nextReconcile: null, scheduled: { pages: 0, next: null } },
      publishCount: { ok: 2, failed: 0 },
      publishes: [
        { ...own, pages: [], full: false, events: 0, finishedAt },
        { ...own, pages: [], full: true, events: 0, finishedAt },
      ],
    })
    expect(html).not.toContain('4920 ms')
    expect(html).toContain('<td>the check at start</td><td>0</td><td>-</td>')
    expect(html).toContain('<td>all pages</td><td>0</td><td>-</td>')
  })
})
