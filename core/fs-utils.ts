import { randomBytes } from 'node:crypto'
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises'

/** Permission bits of every file the companion writes (token, settings, history). */
export const FILE_MODE = 0o600
/** Permission bits of the companion's home folder. */
export const DIR_MODE = 0o700

/**
 * Creates `dir` (and parents) with mode 0700. An existing folder of ours with group/other bits set is
 * tightened to 0700; a shared folder (sticky, like /tmp, or owned by another user) is never touched:
 * that throws, asking for a private folder. Permission bits are not enforced on Windows.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE })
  if (process.platform === 'win32') return
  const info = await stat(dir)
  if ((info.mode & 0o077) === 0) return
  const ours = typeof process.getuid !== 'function' || info.uid === process.getuid()
  if (!ours || (info.mode & 0o1000) !== 0) {
    throw new Error(
      `${dir} is a shared folder (mode ${(info.mode & 0o7777).toString(8)}); the companion keeps its token ` +
        'there, so point ASK_USER_HOME at a private folder (it is created with mode 0700)',
    )
  }
  await chmod(dir, DIR_MODE)
}

/**
 * Writes `data` to `path` atomically: a sibling temp file with mode 0600, then a rename over the
 * target, so a reader sees the old or the new content, never a torn one. Removes the temp file on error.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temp, data, { mode: FILE_MODE })
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/** True when `error` is a Node system error with the given `code` (e.g. `ENOENT`). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code
}
