import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { copyFileAtomic, ensureFolder, writeFileAtomic } from '../../core/private-files'

/** Where a set-up runs: the environment (HOME, XDG_CONFIG_HOME, PATH) and folder of the person's shell. */
export interface SetupContext {
  env: NodeJS.ProcessEnv
  cwd: string
  /** The command that prints this very set-up by hand (`ask-user setup claude-code --print`), for error hints. */
  printCommand: string
}

/** The person's home folder: `HOME` (`USERPROFILE` on Windows), else the OS's. */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env['HOME'] || env['USERPROFILE'] || homedir()
}

/**
 * The absolute path of a plan's file (`~/…`; `~/.config/…` under XDG_CONFIG_HOME where set). For
 * opencode's `opencode.jsonc`, an existing `opencode.json` beside it is the file to edit instead.
 */
export function resolveFile(file: string, env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CONFIG_HOME']
  const path =
    file.startsWith('~/.config/') && xdg && isAbsolute(xdg)
      ? join(xdg, file.slice('~/.config/'.length))
      : join(userHome(env), file.slice(2))
  if (path.endsWith('opencode.jsonc') && !existsSync(path) && existsSync(path.slice(0, -1))) return path.slice(0, -1)
  return path
}

/** The file's text, or '' when it does not exist. */
export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

/**
 * Writes `text` through a new temporary file and a rename (core/private-files.ts), so a client never
 * reads half a file; a file of another user in its place is refused (`NOT_OURS`).
 */
export async function writeText(path: string, text: string): Promise<void> {
  await ensureFolder(dirname(path))
  await writeFileAtomic(path, text)
}

/** Copies `path` to `path.bak` (before an edit that drops its comments); returns the copy's path. */
export async function keepCopy(path: string): Promise<string> {
  await copyFileAtomic(path, `${path}.bak`)
  return `${path}.bak`
}

/** The absolute path of `name` on `PATH` (with PATHEXT on Windows), or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const extensions = process.platform === 'win32' ? (env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';') : ['']
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue
    for (const extension of extensions) {
      const candidate = join(dir, name + extension)
      if (existsSync(candidate)) return candidate
    }
  }
  return undefined
}
