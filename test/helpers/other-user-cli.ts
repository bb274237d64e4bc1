// The built command line, where another Unix user can run it. Tests that run our programs as a second
// user (the askpass tests' sudo and ssh user, the attacker) must not depend on the checkout's parent
// folders: a checkout under a 0700 temp folder, or under a home folder that is 0750 as many distributions
// make them, is closed to that user, and sudo or ssh would then wait for a card that never comes.
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt } from '../unit/cli/built-cli'

const ROOT = join(__dirname, '..', '..')

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
 * Check `tempFolderClosedReason()` (test/helpers/temp-reach.ts) first.
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
