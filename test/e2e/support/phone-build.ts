// Makes sure out/phone (the phone app the phone specs serve) is built from the current sources, once per
// run: npm test's gate has usually built it already, and the phone specs (phone-app, phone-inbox,
// phone-pairing, phone-push) share one build instead of each running vite in its beforeAll.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { newestMtime, ROOT } from './build'

/** The built phone app. */
export const PHONE_DIR = join(ROOT, 'out', 'phone')
/** What the phone build reads: a change to any of these makes out/phone stale. */
const SOURCES = ['phone', 'renderer', 'shared', 'relay', 'integrations']
const FILES = ['vite.phone.config.mts', 'package.json']
// Inside this worktree's out/, so two checkouts never wait for each other.
const LOCK = join(ROOT, 'out', '.phone-build.lock')
/** A lock older than this is left over from a killed build. */
const STALE_LOCK_MS = 180_000

let built = false

function isFresh(): boolean {
  try {
    const index = statSync(join(PHONE_DIR, 'index.html')).mtimeMs
    const sources = Math.max(
      ...SOURCES.map((dir) => newestMtime(join(ROOT, dir))),
      ...FILES.map((file) => statSync(join(ROOT, file)).mtimeMs),
    )
    return index >= sources
  } catch {
    return false
  }
}

/**
 * Builds out/phone with `vite build -c vite.phone.config.mts` unless it is newer than every source it is
 * made from. Once per process; processes (a restarted worker, two runs) take turns through a lock folder,
 * so only one builds and the others find the build fresh. Throws with vite's output when the build fails.
 */
export async function ensurePhoneBuilt(timeoutMs = 180_000): Promise<void> {
  if (built) return
  const deadline = Date.now() + timeoutMs
  mkdirSync(join(ROOT, 'out'), { recursive: true })
  for (;;) {
    if (isFresh()) return void (built = true)
    try {
      mkdirSync(LOCK)
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true })
      } catch {
        /* the lock vanished meanwhile: try again */
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for another process to build out/phone')
      // Polling interval of a wait bounded by `deadline`: the lock's holder gives no event to await.
      await new Promise((resolve) => setTimeout(resolve, 200))
      continue
    }
    try {
      if (!isFresh()) build()
      built = true
      return
    } finally {
      rmSync(LOCK, { recursive: true, force: true })
    }
  }
}

function build(): void {
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '-c', 'vite.phone.config.mts', '--logLevel', 'error'],
      { cwd: ROOT, stdio: 'pipe' },
    )
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`the phone build failed, so the phone specs have no app to serve:\n${output}`, { cause: error })
  }
}
