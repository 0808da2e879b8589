/**
 * Which `Host` headers preview answers. A web page an editor visits could point
 * its own name at the preview's address (DNS rebinding) and read, through the editor's browser, what
 * preview fetches with its API credentials. Such a request names the page's host, so preview answers
 * only loopback names, the sites' `hostname`s, the hosts of their `baseUrl`s and `preview.allowedHosts`.
 */
import { isLoopbackHost, toBareHostname } from '../config/resolve.js'
import type { ResolvedSite } from '../config/types.js'
import { textResponse } from '../serve/http-checks.js'

/** The check of one preview context: true when a request's `Host` (port and all) may be answered. */
function createHostCheck(sites: readonly ResolvedSite[]): (host: string) => boolean {
  const exact = new Set<string>()
  const suffixes: string[] = []
  for (const site of sites) {
    for (const name of site.hostnames) exact.add(name)
    if (site.baseUrl) exact.add(toBareHostname(new URL(site.baseUrl).host))
    for (const name of site.preview.allowedHosts) {
      if (name.startsWith('.')) {
        suffixes.push(name)
        exact.add(name.slice(1))
      } else exact.add(name)
    }
  }
  return (host) => {
    const bare = toBareHostname(host)
    return isLoopbackHost(bare) || exact.has(bare) || suffixes.some((suffix) => bare.endsWith(suffix))
  }
}

/** Longest host name quoted back (the header is the client's). */
const MAX_HOST_LENGTH = 100
/** Refused hosts named on the terminal per context: a page hammering the preview must not flood it. */
const MAX_HOSTS_LOGGED = 20

/**
 * The guard of one preview context: undefined for a host it may answer, else a 403 whose line says how
 * to allow the host (no path or address of this machine in it); each refused host is logged once.
 */
export function createHostGuard(
  sites: readonly ResolvedSite[],
  log: (line: string) => void,
): (host: string) => Response | undefined {
  const allows = createHostCheck(sites)
  const logged = new Set<string>()
  return (host) => {
    if (allows(host)) return undefined
    const shown = JSON.stringify(toBareHostname(host).slice(0, MAX_HOST_LENGTH))
    if (logged.size < MAX_HOSTS_LOGGED && !logged.has(shown)) {
      logged.add(shown)
      log(`preview: refused requests for host ${shown} (403): to allow it, add it to preview.allowedHosts`)
    }
    return textResponse(
      403,
      `403 Forbidden: site preview does not answer for host ${shown}. To allow it, add it to preview.allowedHosts in the site configuration.`,
    )
  }
}
