// The one place product code writes files (the lint rule in eslint.config.mjs forbids node:fs writers
// elsewhere). Every write checks what it touches owner first, then mode, opens with O_NOFOLLOW, creates
// temp files with O_EXCL and renames them into place, and refuses what belongs to another user.
// Synchronous twins for the short-lived helpers live in private-files-sync.ts.
import { randomBytes } from 'node:crypto'
import type { Stats } from 'node:fs'
import { lstat, mkdir, open, rename, stat, symlink, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import {
  APPEND_FLAGS,
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

export { DIR_MODE, FILE_MODE, PrivateFileError, isErrnoCode, type PrivateFileCode } from './private-files-rules'

/** How a file is written: its permission bits (default {@link FILE_MODE}, 0600). */
export interface WriteOptions {
  mode?: number
}

/**
 * Creates `dir` (and parents) with mode 0700 and checks it, owner first, then mode: a folder of another
 * user is refused (`NOT_OURS`) whatever its mode; a sticky one (like /tmp) or a parent anyone may write is
 * refused (`SHARED_FOLDER`); a folder of ours with group/other bits is tightened to 0700. No uid or mode
 * checks on Windows. Throws {@link PrivateFileError}.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE })
  judgeParentFolder(dirname(dir), await stat(dirname(dir)))
  if (judgePrivateFolder(dir, await stat(dir))) await chmodFolder(dir)
}

async function chmodFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.chmod(DIR_MODE)
  } finally {
    await handle.close()
  }
}

/** Creates `dir` and its parents with the default permissions (a person's config folder, not a private one). */
export async function ensureFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
}

/**
 * Writes `data` to `path` atomically: a new sibling temp file (O_EXCL, O_NOFOLLOW, mode 0600 or
 * `options.mode`), then a rename over the target, so a reader sees the old or the new content and a
 * link planted at the temp name is never followed. A target of another user is refused (`NOT_OURS`).
 * Removes the temp file on error.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> {
  const temp = tempName(path)
  try {
    const handle = await open(temp, CREATE_NEW_FLAGS, options.mode ?? FILE_MODE).catch((error: unknown) => {
      throw explainOpenError(temp, error)
    })
    try {
      await handle.writeFile(data)
    } finally {
      await handle.close()
    }
    judgeReplaced(path, await lstatOrUndefined(path))
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/**
 * Creates `path` as a new file with mode 0600 and writes `data` to it: an existing file or a link in its
 * place is refused (O_EXCL, O_NOFOLLOW: EEXIST), so nothing of anyone's is overwritten.
 */
export async function createPrivateFile(path: string, data: string): Promise<void> {
  const handle = await open(path, CREATE_NEW_FLAGS, FILE_MODE).catch((error: unknown) => {
    throw explainOpenError(path, error)
  })
  try {
    await handle.writeFile(data)
  } finally {
    await handle.close()
  }
}

/**
 * Appends `text` to `path`, creating it with mode 0600. Never through a link (O_NOFOLLOW); a file of
 * another user is refused (`NOT_OURS`) before a byte is written; one of ours with group/other bits is
 * tightened to 0600.
 */
export async function appendPrivateFile(path: string, text: string): Promise<void> {
  const handle = await open(path, APPEND_FLAGS, FILE_MODE).catch((error: unknown) => {
    throw explainOpenError(path, error)
  })
  try {
    if (judgePrivateFile(path, await handle.stat())) await handle.chmod(FILE_MODE)
    await handle.appendFile(text)
  } finally {
    await handle.close()
  }
}

/**
 * Reads a file the companion keeps (UTF-8), never through a link: a file of another user is refused
 * (`NOT_OURS`), so nothing planted is believed; one of ours with group/other bits is tightened to 0600.
 * A missing file throws ENOENT as usual.
 */
export async function readPrivateFile(path: string): Promise<string> {
  const handle = await open(path, READ_FLAGS).catch((error: unknown) => {
    throw explainOpenError(path, error)
  })
  try {
    if (judgePrivateFile(path, await handle.stat())) await handle.chmod(FILE_MODE)
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

/**
 * The last `maxBytes` bytes of a private file as text, from its first whole line (all of it when
 * shorter), and the file's size; checked and tightened as {@link readPrivateFile} does.
 */
export async function readPrivateFileTail(path: string, maxBytes: number): Promise<{ text: string; size: number }> {
  const handle = await open(path, READ_FLAGS).catch((error: unknown) => {
    throw explainOpenError(path, error)
  })
  try {
    const info = await handle.stat()
    if (judgePrivateFile(path, info)) await handle.chmod(FILE_MODE)
    const start = Math.max(0, info.size - maxBytes)
    const buffer = Buffer.alloc(info.size - start)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    // Started mid-file: the first line is most likely a part of one, so it is dropped.
    return { text: start > 0 ? text.slice(text.indexOf('\n') + 1) : text, size: info.size }
  } finally {
    await handle.close()
  }
}

/** Copies `from` to `to` (atomically, mode 0600), e.g. a backup before an edit. */
export async function copyFileAtomic(from: string, to: string): Promise<void> {
  const handle = await open(from, READ_FLAGS)
  let data: Buffer
  try {
    data = await handle.readFile()
  } finally {
    await handle.close()
  }
  await writeFileAtomic(to, data)
}

/**
 * Points `linkPath` at `target` atomically: a symbolic link made under a new temp name, then renamed over
 * `linkPath`. A `linkPath` of another user is refused (`NOT_OURS`).
 */
export async function replaceWithSymlink(target: string, linkPath: string): Promise<void> {
  const temp = tempName(linkPath)
  try {
    await symlink(target, temp)
    judgeReplaced(linkPath, await lstatOrUndefined(linkPath))
    await rename(temp, linkPath)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/** Removes the file `path` (a link itself, never its target); a missing one is fine. */
export async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isErrnoCode(error, 'ENOENT')) throw error
  })
}

/** A fresh, unguessable sibling name for a temp file of `path`. */
export function tempName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined
    throw error
  }
}
