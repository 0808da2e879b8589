/**
 * The browser the tests drive: `CHROMIUM_PATH` when set (a Chrome or Chromium elsewhere than Debian,
 * e.g. on macOS), else Debian's `/usr/bin/chromium` (scripts/setup.sh installs it where apt is).
 * Never a downloaded browser.
 */
import { existsSync } from 'node:fs'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/**
 * Without a browser the browser suites are skipped; a CHROMIUM_PATH that names nothing is a mistake,
 * and fails them instead of skipping them quietly.
 */
export const hasChromium = existsSync(CHROMIUM_PATH) || Boolean(process.env.CHROMIUM_PATH)
