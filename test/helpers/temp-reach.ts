// Whether another Unix user can reach the temp folder. Tests that act as a second user (the askpass
// tests' sudo and ssh user, the attacker) put what that user needs under the temp folder, never in the
// checkout, whose parent folders may be closed to them (a 0700 folder, a 0750 home folder).
import { statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, resolve } from 'node:path'

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
 * Why tests that act as another user cannot run here, or undefined when they can: that user must be
 * able to enter the temp folder. Print it as the skip's reason.
 */
export function tempFolderClosedReason(): string | undefined {
  const closed = folderClosedToOthers(tmpdir())
  return closed === undefined
    ? undefined
    : `${closed} (on the way to the temp folder ${tmpdir()}) is closed to other users (no o+x); ` +
        'set TMPDIR to a folder they can enter'
}
