// Draws the demo's social share image (Open Graph / Twitter card, 1200 x 630 PNG: social networks
// show no SVG) with Debian's Chromium and writes it to demo/content/fileadmin/images/social/.
// Run it again after changing the card below: node scripts/demo-share-image.mjs
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const OUT = fileURLToPath(new URL('../demo/content/fileadmin/images/social/amberline-share.png', import.meta.url))
const WIDTH = 1200
const HEIGHT = 630

// The skyline of the hero illustration (hero-office.svg), the logo mark of the header, the claim of the home page.
const card = `<!doctype html><html><body style="margin:0">
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#0f172a"/>
  <circle cx="1010" cy="150" r="230" fill="#1e293b"/>
  <g transform="translate(96 120)">
    <rect width="88" height="88" rx="22" fill="#d97706"/>
    <path d="M0 66L66 0h22v22L22 88H0z" fill="#fbbf24"/>
    <path d="M36 88L88 36v14L50 88z" fill="#fff" opacity=".9"/>
  </g>
  <text x="212" y="180" font-family="Liberation Sans, Arial, sans-serif" font-size="54" font-weight="700" fill="#fff">Amberline Software</text>
  <text x="96" y="300" font-family="Liberation Sans, Arial, sans-serif" font-size="44" font-weight="700" fill="#f8fafc">Software that moves your business forward</text>
  <text x="96" y="356" font-family="Liberation Sans, Arial, sans-serif" font-size="28" fill="#cbd5e1">Custom software, cloud and data engineering · Gdańsk, Kraków, Berlin</text>
  <g transform="translate(0 430)">
    <path d="M0 200V110l50-60 50 60V40l40-60 40 60v160h30V70l40-50 40 50v130h20V-10h90v210h20V60l50-70 50 70v140h30V80l45-60 45 60v120h25V40l50-70 50 70v160h30V90l40-50 40 50v110h25V50l55-70 55 70v150h30V70l45-55 45 55v130h25V60l50-60 50 60v140z" fill="#1e293b"/>
    <g fill="#fbbf24" opacity=".8"><rect x="120" y="90" width="12" height="18"/><rect x="320" y="40" width="14" height="22"/><rect x="460" y="100" width="12" height="18"/><rect x="640" y="70" width="12" height="18"/><rect x="830" y="110" width="12" height="18"/><rect x="1010" y="80" width="12" height="18"/></g>
    <rect y="188" width="1200" height="12" fill="#f59e0b"/>
  </g>
</svg></body></html>`

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } })
  await page.setContent(card)
  await page.screenshot({ path: OUT, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
  console.log(`wrote ${OUT}`)
} finally {
  await browser.close()
}
