// A non-root user with a password and sudo rights, for the sudo and ssh tests (root is never asked by
// sudo). Each test file makes its own and removes it, with its sudoers entry and home, in `afterAll`:
// a user that can sudo must not outlive the run, and files running at once never share one.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { accountCommand } from '../../helpers/account-command'

/** Random per process: no fixed or guessable password sits on the machine, even during a run. */
export const TEST_PASSWORD = `pw-${randomBytes(12).toString('base64url')}`

export interface TestUser {
  name: string
  uid: number
  gid: number
  home: string
  /** Ends the user's processes and removes the user, its home and its sudoers entry. Safe to call twice. */
  remove(): void
}

/** Why the root-only tests cannot run here, or undefined when they can. */
export function rootSkipReason(programs: string[]): string | undefined {
  if (process.getuid?.() !== 0) return 'they need root to create a test user'
  const absent = programs.filter((path) => !existsSync(path))
  return absent.length > 0 ? `${absent.join(', ')} not installed (.ci/run installs sudo and openssh-server)` : undefined
}

/** Creates a fresh test user with {@link TEST_PASSWORD} that may run anything with sudo. */
export function createTestUser(): TestUser {
  const name = `auc-pw-${process.pid}-${randomBytes(2).toString('hex')}`
  accountCommand('useradd', ['-m', '-s', '/bin/sh', name])
  accountCommand('chpasswd', [], `${name}:${TEST_PASSWORD}\n`)
  const sudoers = `/etc/sudoers.d/${name}`
  writeFileSync(sudoers, `${name} ALL=(ALL) ALL\n`, { mode: 0o440 })
  const id = (flag: string): number => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim())
  const uid = id('-u')
  let removed = false
  return {
    name,
    uid,
    gid: id('-g'),
    home: `/home/${name}`,
    remove: () => {
      if (removed) return
      removed = true
      rmSync(sudoers, { force: true })
      // sudo's own per-user records (the lecture shown once, the credential timestamp)
      for (const record of [`/var/lib/sudo/lectured/${name}`, `/run/sudo/ts/${name}`]) rmSync(record, { force: true })
      try {
        execFileSync('pkill', ['-KILL', '-u', String(uid)], { stdio: 'ignore' })
      } catch {
        // nothing left running
      }
      accountCommand('userdel', ['-r', '-f', name])
    },
  }
}
