// useradd, userdel and chpasswd each lock /etc/passwd or /etc/shadow and fail at once when another holds
// it, so test files running side by side (vitest's workers) could make or remove their users at the same
// moment and fail for it. Every such command of the tests runs under one lock file (`flock`, waited for),
// so they take turns; the users themselves stay one per file.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The lock the tests' account commands take turns on: in /run/lock (root's, where the system's own locks
 * go), or /tmp on a Linux without it (a minimal container). Never the run's TMPDIR: two checkouts running
 * their tests at once must share it, as they share /etc/passwd.
 */
const ACCOUNTS_LOCK = join(existsSync('/run/lock') ? '/run/lock' : '/tmp', 'ask-user-test-accounts.lock')

/** Whether `flock` runs here (util-linux or BusyBox); looked up once. */
let flockRuns: boolean | undefined

/**
 * Runs `command args` (useradd, userdel, chpasswd) under {@link ACCOUNTS_LOCK}; throws on failure. On a
 * Linux without `flock` the command runs unlocked, as before the lock (files could then collide again;
 * a note says so once).
 */
export function accountCommand(command: string, args: string[], input?: string): void {
  if (flockRuns === undefined) {
    flockRuns = spawnSync('flock', ['-h'], { stdio: 'ignore' }).error === undefined
    if (!flockRuns) console.log('flock is not installed: the tests make and remove their users unlocked')
  }
  // `-w` (seconds to wait): the spelling util-linux and BusyBox both read.
  const [program, argv] = flockRuns ? ['flock', ['-w', '120', ACCOUNTS_LOCK, command, ...args]] : [command, args]
  execFileSync(program, argv, {
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    ...(input === undefined ? {} : { input }),
  })
}
