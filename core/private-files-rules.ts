import { constants, type Stats } from 'node:fs'

/** Permission bits of every file the companion writes (token, settings, history, askpass notes). */
export const FILE_MODE = 0o600
/** Permission bits of the companion's private folders (its home, the askpass notes). */
export const DIR_MODE = 0o700

/** Why a path was refused: the stable codes of {@link PrivateFileError}. */
export type PrivateFileCode = 'NOT_OURS' | 'SHARED_FOLDER' | 'NOT_A_FILE' | 'NOT_A_FOLDER'

/**
 * A path the companion will not read or write: owned by another user (`NOT_OURS`), a folder others may
 * write or a sticky one like /tmp (`SHARED_FOLDER`), or a symbolic link / special file where a regular
 * file or folder belongs (`NOT_A_FILE`, `NOT_A_FOLDER`). The message names the path and what to do.
 */
export class PrivateFileError extends Error {
  override readonly name = 'PrivateFileError'
  constructor(
    readonly code: PrivateFileCode,
    readonly path: string,
    message: string,
  ) {
    super(`${code}: ${message}`)
  }
}

/** No uid or permission bits to check on Windows: its ACLs keep a user's profile folders private. */
export const CHECKS_OWNERS = process.platform !== 'win32'

// O_NOFOLLOW does not exist on Windows; there the flag is simply absent.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
// O_NONBLOCK keeps a planted FIFO from blocking an open forever; it changes nothing for regular files.
const NONBLOCK = constants.O_NONBLOCK ?? 0
/** The sticky bit (S_ISVTX): in such a folder only an entry's owner may rename or remove it. */
const STICKY = 0o1000

/** Open flags: a new temp file that must not exist yet and is never reached through a link. */
export const CREATE_NEW_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW
/** Open flags: append to a file, creating it; a link in its place is refused (ELOOP). */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK
/** Open flags: read a file, never through a link, never blocking on a FIFO. */
export const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK

/** This process's uid, or undefined where there are none (Windows). */
export function ourUid(): number | undefined {
  return CHECKS_OWNERS && typeof process.getuid === 'function' ? process.getuid() : undefined
}

function notOurs(path: string, what: string, uid: number, fix: string): PrivateFileError {
  return new PrivateFileError(
    'NOT_OURS',
    path,
    `${what} ${path} belongs to uid ${uid}, not to you (uid ${ourUid()}); ${fix}`,
  )
}

/**
 * The verdict on a folder the companion keeps private files in, owner first, then mode: throws
 * `NOT_A_FOLDER`, `NOT_OURS` or `SHARED_FOLDER`; returns true when it is ours but group/other bits must
 * be taken away (the caller tightens it to 0700), false when it is already private.
 */
export function judgePrivateFolder(dir: string, info: Stats): boolean {
  if (!info.isDirectory()) {
    throw new PrivateFileError(
      'NOT_A_FOLDER',
      dir,
      `${dir} is not a folder; remove it or point ASK_USER_HOME at a private folder`,
    )
  }
  const uid = ourUid()
  if (uid === undefined) return false
  if (info.uid !== uid) {
    throw notOurs(
      dir,
      'the folder',
      info.uid,
      'another user could read or replace what is kept there. Remove it (as its owner or root), or point ASK_USER_HOME at a folder of yours',
    )
  }
  if ((info.mode & 0o077) === 0) return false
  if ((info.mode & STICKY) !== 0) {
    throw new PrivateFileError(
      'SHARED_FOLDER',
      dir,
      `${dir} is a shared folder (mode ${(info.mode & 0o7777).toString(8)}); point ASK_USER_HOME at a private folder (it is created with mode 0700)`,
    )
  }
  return true
}

/**
 * The verdict on the parent of a private folder: others must not be able to swap the folder for theirs.
 * Throws `SHARED_FOLDER` when anyone may write it without the sticky bit (sticky ones like /tmp keep
 * each user's entries theirs).
 */
export function judgeParentFolder(parent: string, info: Stats): void {
  if (!CHECKS_OWNERS) return
  if ((info.mode & 0o002) !== 0 && (info.mode & STICKY) === 0) {
    throw new PrivateFileError(
      'SHARED_FOLDER',
      parent,
      `${parent} may be written by every user (mode ${(info.mode & 0o7777).toString(8)}); keep the companion's files under a folder only you can change`,
    )
  }
}

/**
 * The verdict on an open file (its fstat), owner first, then kind: throws `NOT_OURS` or `NOT_A_FILE`;
 * returns true when it is ours but group/other bits must be taken away (the caller tightens it to 0600).
 */
export function judgePrivateFile(path: string, info: Stats): boolean {
  const uid = ourUid()
  if (uid !== undefined && info.uid !== uid) {
    throw notOurs(
      path,
      'the file',
      info.uid,
      'it is not used. Remove it (as its owner or root); the companion writes a new one',
    )
  }
  if (!info.isFile()) {
    throw new PrivateFileError(
      'NOT_A_FILE',
      path,
      `${path} is not a regular file; remove it, the companion writes a new one`,
    )
  }
  return uid !== undefined && (info.mode & 0o077) !== 0
}

/**
 * The verdict on what a write is about to replace (its lstat): a file or link of another user is refused
 * (`NOT_OURS`), so nothing of someone else's is ever taken over; a missing target is fine.
 */
export function judgeReplaced(path: string, info: Stats | undefined): void {
  const uid = ourUid()
  if (info === undefined || uid === undefined) return
  if (info.uid !== uid)
    throw notOurs(path, 'the file', info.uid, 'it is not replaced. Remove it (as its owner or root), then try again')
  if (info.isDirectory())
    throw new PrivateFileError(
      'NOT_A_FILE',
      path,
      `${path} is a folder where a file belongs; remove it, then try again`,
    )
}

/** A symbolic link met where O_NOFOLLOW refused it, as a {@link PrivateFileError}; other errors unchanged. */
export function explainOpenError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ELOOP' || code === 'EMLINK') {
    return new PrivateFileError(
      'NOT_A_FILE',
      path,
      `${path} is a symbolic link; the companion never writes or reads through one. Remove it`,
    )
  }
  return error
}

/** True when `error` is a Node system error with the given `code` (e.g. `ENOENT`). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code
}
