// The built command line, where another Unix user can run it. Tests that run our programs as a second
// user (the askpass tests' sudo and ssh user, the attacker) must not depend on the checkout's parent
// folders: a checkout under a 0700 temp folder, or under a home folder that is 0750 as many distributions
// make them, is closed to that user, and sudo or ssh would then wait for a card that never comes.
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { ensureBuilt } from '../unit/cli/built-cli'

const ROOT = join(__dirname, '..', '..')

/**
 * The first folder on the way to `path` (itself included) that other users may not enter (no
 * `o+x`), or undefined when they reach it. A missing path counts as closed (named as it is).
 */
export function folderClosedToOthers(path: string): string | undefined {
  const chain: string[] = []
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    chain.unshift(folder)
    if (dirname(folder) === folder) break
  }
  for (const folder of chain) {
    try {
      if ((statSync(folder).mode & 0o001) === 0) return folder
    } catch {
      return folder
    }
  }
  return undefined
}

/**
 * Why this file's tests that run the built CLI as another user cannot run here, or undefined when they
 * can: the copy goes to the temp folder, so that folder must be open to others. Print it as the skip.
 */
export function otherUserCliSkipReason(): string | undefined {
  const closed = folderClosedToOthers(tmpdir())
  return closed === undefined
    ? undefined
    : `${closed} (on the way to the temp folder ${tmpdir()}) is closed to other users (no o+x); ` +
        'set TMPDIR to a folder they can enter'
}

/** Lets every user read `path` and enter its folders (a checkout made under umask 077 is 0600 inside). */
function openToOthers(path: string): void {
  const stat = statSync(path)
  chmodSync(path, stat.mode | (stat.isDirectory() || stat.mode & 0o100 ? 0o055 : 0o044))
  if (stat.isDirectory()) for (const name of readdirSync(path)) openToOthers(join(path, name))
}

export interface OtherUserCli {
  /** The copy's folder (mode 0755); removed by {@link OtherUserCli.remove}. */
  dir: string
  /** The copy's `ask-user-askpass` (bin/ask-user-askpass.js), for SUDO_ASKPASS, SSH_ASKPASS and the like. */
  askpass: string
  /** The copy's `ask-user` (bin/ask-user.js). */
  cli: string
  /** Removes the copy. Safe to call twice. */
  remove(): void
}

/**
 * Builds if the sources are newer than out/, then copies what the bin scripts run (bin/ and out/main/,
 * a self-contained bundle) into a fresh folder under the temp folder that any user can read and enter.
 * Check {@link otherUserCliSkipReason} first.
 */
export async function copyCliForOtherUsers(): Promise<OtherUserCli> {
  await ensureBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'ask-user-cli-copy-'))
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true })
  cpSync(join(ROOT, 'out', 'main'), join(dir, 'out', 'main'), { recursive: true })
  openToOthers(dir) // mkdtemp makes it 0700
  return {
    dir,
    askpass: join(dir, 'bin', 'ask-user-askpass.js'),
    cli: join(dir, 'bin', 'ask-user.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
