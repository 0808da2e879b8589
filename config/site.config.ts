import { defineConfig } from 'typo3-headless-site/config'

/**
 * The site's configuration. Every option and its default is documented in the
 * engine's docs/configuration.md (in a site project:
 * node_modules/typo3-headless-site/docs/configuration.md). `--api URL` overrides
 * api.baseUrl (CI points the same config at staging or production).
 */
export default defineConfig({
  baseUrl: 'http://127.0.0.1:8080',
  api: {
    // The bundled demo content API (`site demo-api`, port 4010 by default).
    baseUrl: 'http://127.0.0.1:4010',
    allowQuery: ['cHash', 'tx_news_pi1[news]'],
    proxyReqHeaders: ['cookie', 'accept-language'],
    proxyHeaders: ['set-cookie', 'cache-control'],
  },
  i18n: {
    default: 'en',
    locales: ['en', 'pl', 'de'],
  },
  features: {
    contentPreview: true,
  },
  preview: {
    queryParam: 'pce',
  },
  tracking: {},
})
