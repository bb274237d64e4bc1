import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** Tool caches the runners keep in their temp folder themselves: not a test that forgot to clean up. */
const RUNNER_CACHES = [/^playwright-transform-cache/]

/**
 * `npm test`'s temp folder for the test runners, made under `realTmp`: nothing a test forgets piles up
 * in the real one. Open to other users (0755), since the askpass and attacker tests act as a second
 * Unix user. `env` points TMPDIR, TMP and TEMP at it, and keeps the harness CLIs' cache (the suite's one
 * deliberate cache) in the real temp folder, unless ASK_USER_CLIENT_CACHE already says where.
 */
export function openRunTemp(realTmp, environment = process.env) {
  const dir = mkdtempSync(join(realTmp, 'ask-user-npm-test-'))
  chmodSync(dir, 0o755)
  return {
    dir,
    env: {
      TMPDIR: dir,
      TMP: dir,
      TEMP: dir,
      ASK_USER_CLIENT_CACHE: environment.ASK_USER_CLIENT_CACHE ?? join(realTmp, 'ask-user-clients'),
    },
  }
}

/** Removes the folder; returns the names a test left in it (the runners' own caches aside). */
export function closeRunTemp(dir) {
  const left = readdirSync(dir).filter((name) => !RUNNER_CACHES.some((cache) => cache.test(name)))
  rmSync(dir, { recursive: true, force: true })
  return left
}
