// Synchronous twins of private-files.ts for the short-lived helpers that cannot wait on promises
// (the askpass helper, the Linux autostart entry). Same checks: owner first, then mode; O_NOFOLLOW;
// O_EXCL temp files renamed into place; whatever belongs to another user is refused.
import {
  closeSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs'
import { dirname } from 'node:path'
import { tempName, type WriteOptions } from './private-files'
import {
  CREATE_NEW_FLAGS,
  DIR_MODE,
  FILE_MODE,
  READ_FLAGS,
  explainOpenError,
  isErrnoCode,
  judgeParentFolder,
  judgePrivateFile,
  judgePrivateFolder,
  judgeReplaced,
} from './private-files-rules'

/** {@link import('./private-files').ensurePrivateDir}, synchronously. Throws {@link PrivateFileError}. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE })
  judgeParentFolder(dirname(dir), statSync(dirname(dir)))
  if (!judgePrivateFolder(dir, statSync(dir))) return
  const fd = openSync(dir, 'r')
  try {
    fchmodSync(fd, DIR_MODE)
  } finally {
    closeSync(fd)
  }
}

/** Creates `dir` and its parents with the default permissions (a person's config folder, not a private one). */
export function ensureFolderSync(dir: string): void {
  mkdirSync(dir, { recursive: true })
}

/** {@link import('./private-files').writeFileAtomic}, synchronously. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const temp = tempName(path)
  try {
    let fd: number
    try {
      fd = openSync(temp, CREATE_NEW_FLAGS, options.mode ?? FILE_MODE)
    } catch (error) {
      throw explainOpenError(temp, error)
    }
    try {
      writeFileSync(fd, data)
    } finally {
      closeSync(fd)
    }
    judgeReplaced(path, lstatOrUndefined(path))
    renameSync(temp, path)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch {
      // never created, or already renamed
    }
    throw error
  }
}

/** {@link import('./private-files').readPrivateFile}, synchronously. */
export function readPrivateFileSync(path: string): string {
  let fd: number
  try {
    fd = openSync(path, READ_FLAGS)
  } catch (error) {
    throw explainOpenError(path, error)
  }
  try {
    if (judgePrivateFile(path, fstatSync(fd))) fchmodSync(fd, FILE_MODE)
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

/** Removes the file `path` (a link itself, never its target); a missing one is fine. */
export function removeFileSync(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if (!isErrnoCode(error, 'ENOENT')) throw error
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined
    throw error
  }
}
