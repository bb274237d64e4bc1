import { existsSync } from 'node:fs'

/**
 * The Chromium the browser tests drive: `CHROMIUM_PATH`, else Debian's or a distribution's usual
 * places. Returns undefined when none is found (Playwright then falls back to its own download, if any).
 */
export function chromiumPath() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
  ]
  return candidates.find((path) => path && existsSync(path))
}

/** Flags for a headless Chromium on a machine with no network and as root (tests and the bench). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
