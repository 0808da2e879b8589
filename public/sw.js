/*
 * Service worker of the site (registered at /sw.js by the loader of every static page, once it has loaded).
 *
 * - Content-hashed files under /_site/assets/ are served cache first: a hashed name
 *   never changes its bytes, so a cached copy is always right.
 * - Everything else (HTML, _payload.json, /_site/builds/, /_site/data/) is not touched:
 *   the browser goes to the network as if there were no worker. No stale pages, ever.
 * - Assets are cached per generation of the client code. Pages tell the worker their client
 *   version (in the message's `buildId` field; builds that change only content keep it); on a
 *   new one, caches older than the previous generation are dropped (the previous one stays for
 *   tabs still open on it). Caches of older worker versions are dropped on activate.
 */
const VERSION = 'v1'
const PREFIX = `site-${VERSION}-build-`
const META_CACHE = `site-${VERSION}-meta`
const META_KEY = '/__site-sw/builds'
/** Build generations kept: the current one and the one before. */
const KEEP_BUILDS = 2
const ASSET_PATH_RE = /^\/_site\/assets\/[^/]+$/

self.addEventListener('install', () => {
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys()
      await Promise.all(
        names
          .filter((name) => name.startsWith('site-') && !name.startsWith(`site-${VERSION}-`))
          .map((name) => caches.delete(name)),
      )
      await self.clients.claim()
    })(),
  )
})

async function readBuilds() {
  const response = await (await caches.open(META_CACHE)).match(META_KEY)
  const builds = response ? await response.json().catch(() => []) : []
  return Array.isArray(builds) ? builds.filter((id) => typeof id === 'string') : []
}

async function announceBuild(buildId) {
  const builds = await readBuilds()
  if (builds[builds.length - 1] === buildId) return
  const next = [...builds.filter((id) => id !== buildId), buildId].slice(-KEEP_BUILDS)
  const meta = await caches.open(META_CACHE)
  await meta.put(META_KEY, new Response(JSON.stringify(next), { headers: { 'content-type': 'application/json' } }))
  const keep = new Set(next.map((id) => PREFIX + id))
  const names = await caches.keys()
  await Promise.all(
    names.filter((name) => name.startsWith(PREFIX) && !keep.has(name)).map((name) => caches.delete(name)),
  )
}

self.addEventListener('message', (event) => {
  const data = event.data
  if (data && data.type === 'site:build' && typeof data.buildId === 'string' && data.buildId.length <= 200) {
    event.waitUntil(announceBuild(data.buildId))
  }
})

async function cacheFirst(request) {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX))
  for (const name of names) {
    const hit = await (await caches.open(name)).match(request)
    if (hit) return hit
  }
  const response = await fetch(request)
  if (response.status === 200 && response.type === 'basic') {
    const builds = await readBuilds()
    const cache = await caches.open(PREFIX + (builds[builds.length - 1] ?? 'unknown'))
    await cache.put(request, response.clone()).catch(() => undefined)
  }
  return response
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin || url.search !== '' || !ASSET_PATH_RE.test(url.pathname)) return
  event.respondWith(cacheFirst(request))
})
