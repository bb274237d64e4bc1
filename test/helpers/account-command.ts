// useradd, userdel and chpasswd each lock /etc/passwd or /etc/shadow and fail at once when another holds
// it, so test files running side by side (vitest's workers) could make or remove their users at the same
// moment and fail for it. Every such command of the tests runs under one lock file (`flock`, waited for),
// so they take turns; the users themselves stay one per file.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The lock the tests' account commands take turns on: in /run/lock (root's, where the system's own locks
 * go), or /tmp on a Linux without it (a minimal container). Never the run's TMPDIR: two checkouts running
 * their tests at once must share it, as they share /etc/passwd.
 */
const ACCOUNTS_LOCK = join(existsSync('/run/lock') ? '/run/lock' : '/tmp', 'ask-user-test-accounts.lock')

/** Runs `command args` (useradd, userdel, chpasswd) under {@link ACCOUNTS_LOCK}; throws on failure. */
export function accountCommand(command: string, args: string[], input?: string): void {
  // `-w` (seconds to wait): the spelling util-linux and BusyBox both read.
  execFileSync('flock', ['-w', '120', ACCOUNTS_LOCK, command, ...args], {
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    ...(input === undefined ? {} : { input }),
  })
}
