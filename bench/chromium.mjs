// Debian's Chromium for the benchmarks that drive a browser (Lighthouse): headless, no background traffic.
import * as chromeLauncher from 'chrome-launcher'

export const launchChromium = () =>
  chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
