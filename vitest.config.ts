import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  resolve: {
    alias: {
      'typo3-headless-site/runtime': src('runtime/index.ts'),
      'typo3-headless-site/config': src('config/define.ts'),
    },
  },
  test: {
    // Render workers and bin/site.js run dist/: compiled from the sources under test first.
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Hang guards, not speed checks (the bench scripts measure speed): the browser sweeps take a
    // minute on a loaded 2-core machine, where CI runs them beside a busy core (test/global-setup.ts).
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // Two cores: integration and browser suites start servers and Chromium.
    maxWorkers: 2,
  },
})
