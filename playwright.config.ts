import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium-path.mjs'

/**
 * End-to-end tests in a real Chromium (Debian's /usr/bin/chromium here). Each spec starts its own
 * companion core (`ask-user serve` or the core in-process) on port 0, so nothing is shared between tests.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  workers: 1,
  fullyParallel: false,
  reporter: process.env.PW_JSON_OUTPUT ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]] : [['list']],
  // Generous on purpose, as test/helpers/waits.ts: the suite must pass on a busy machine; a bound only
  // decides how long a real failure takes to show.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
})
