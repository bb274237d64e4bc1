// A non-root user with a password, for the sudo and ssh tests (root is never asked by sudo).
import { execFileSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'

export const TEST_USER = 'askpass-test'
/** Rotated per run: the user's password is set here, so no fixed password sits on the machine. */
export const TEST_PASSWORD = `pw-${process.pid}-${Date.now().toString(36)}`

export interface TestUser {
  name: string
  uid: number
  gid: number
  home: string
}

/** Why the root-only tests cannot run here, or undefined when they can. */
export function rootSkipReason(programs: string[]): string | undefined {
  if (process.getuid?.() !== 0) return 'they need root to create a test user'
  const absent = programs.filter((path) => !existsSync(path))
  return absent.length > 0 ? `${absent.join(', ')} not installed (.ci/run installs sudo and openssh-server)` : undefined
}

/** Creates (or reuses) the test user, sets its password and lets it run anything with sudo. */
export function ensureTestUser(): TestUser {
  try {
    execFileSync('id', ['-u', TEST_USER], { stdio: 'ignore' })
  } catch {
    execFileSync('useradd', ['-m', '-s', '/bin/sh', TEST_USER])
  }
  execFileSync('chpasswd', [], { input: `${TEST_USER}:${TEST_PASSWORD}\n` })
  writeFileSync(`/etc/sudoers.d/${TEST_USER}`, `${TEST_USER} ALL=(ALL) ALL\n`, { mode: 0o440 })
  const id = (flag: string): number => Number(execFileSync('id', [flag, TEST_USER], { encoding: 'utf8' }).trim())
  return { name: TEST_USER, uid: id('-u'), gid: id('-g'), home: `/home/${TEST_USER}` }
}
