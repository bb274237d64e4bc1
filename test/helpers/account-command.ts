// useradd, userdel and chpasswd each lock /etc/passwd or /etc/shadow and fail at once when another holds
// it, so test files running side by side (vitest's workers) could make or remove their users at the same
// moment and fail for it. Every such command of the tests runs under one lock file (util-linux `flock`,
// waited for), so they take turns; the users themselves stay one per file.
import { execFileSync } from 'node:child_process'

/** The lock the tests' account commands take turns on (root-only tests: /run/lock is root's). */
const ACCOUNTS_LOCK = '/run/lock/ask-user-test-accounts.lock'

/** Runs `command args` (useradd, userdel, chpasswd) under {@link ACCOUNTS_LOCK}; throws on failure. */
export function accountCommand(command: string, args: string[], input?: string): void {
  execFileSync('flock', ['--timeout', '120', ACCOUNTS_LOCK, command, ...args], {
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    ...(input === undefined ? {} : { input }),
  })
}
