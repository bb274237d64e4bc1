import { execFile } from 'node:child_process'
import { access, constants, lstat, readFile, readlink } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import type * as Electron from 'electron'
import type { Platform } from './electron-api'
import type { Strings } from './strings'
import { errorMessage } from '../../shared/describe-error'
import { ensureFolder, replaceWithSymlink, writeFileAtomic } from '../../core/private-files'

/** A line the installed AppImage script carries, so a later install knows the file is ours. */
const MARKER = '# Installed by Ask User Companion (Install Command Line Tool…)'

export interface CommandLineInstallOptions {
  platform: Platform
  env: NodeJS.ProcessEnv
  /** The app's resources folder (`process.resourcesPath`): the launcher is `bin/ask-user` there. */
  resourcesPath: string
  userHome: string
  /** Tried first on macOS when it is writable without asking for a password (default /usr/local/bin). */
  systemBinDir?: string
  /** Runs a program (Windows only: PowerShell to change the user PATH); default `execFile`. */
  run?: (file: string, args: string[]) => Promise<void>
}

/** What happened, in words for the person (the tray shows `message` in a dialog). */
export type CommandLineInstallResult =
  { ok: true; path: string; onPath: boolean; message: string } | { ok: false; message: string }

/**
 * "Install Command Line Tool…": puts the packaged app's `ask-user` on the person's PATH, like VS Code's
 * "Install 'code' command in PATH", without asking for an administrator password.
 * - macOS and Linux: a symlink `ask-user` → `resources/bin/ask-user`, in /usr/local/bin when that is
 *   writable (macOS), else in ~/.local/bin. An AppImage gets a small script that starts the AppImage
 *   instead, since its resources live in a mount that exists only while it runs.
 * - Windows: `resources\bin` (with `ask-user.cmd`) is added to the user's Path.
 * Idempotent; refuses to replace an `ask-user` that is not ours.
 */
export async function installCommandLine(options: CommandLineInstallOptions): Promise<CommandLineInstallResult> {
  try {
    return options.platform === 'win32' ? await installOnWindows(options) : await installOnPosix(options)
  } catch (error) {
    return { ok: false, message: `The command line tool could not be installed: ${errorMessage(error)}` }
  }
}

async function installOnPosix(options: CommandLineInstallOptions): Promise<CommandLineInstallResult> {
  const launcher = join(options.resourcesPath, 'bin', 'ask-user')
  await access(launcher, constants.X_OK)
  const dir = await binDir(options)
  const target = join(dir, 'ask-user')
  const existing = await ownership(target, options.resourcesPath)
  if (existing === 'foreign') {
    return {
      ok: false,
      message: `${target} already exists and is not Ask User Companion's. Remove it, then try again.`,
    }
  }
  await ensureFolder(dir)
  const appImage = options.platform === 'linux' ? options.env['APPIMAGE'] : undefined
  // Both are atomic (a new temp name renamed over the target) and refuse a target of another user.
  if (appImage) {
    await writeFileAtomic(target, `#!/bin/sh\n${MARKER}\nASK_USER_CLI=1 exec ${shellQuote(appImage)} "$@"\n`, {
      mode: 0o755,
    })
  } else {
    await replaceWithSymlink(launcher, target)
  }
  const onPath = (options.env['PATH'] ?? '').split(delimiter).includes(dir)
  const hint = onPath
    ? ''
    : ` ${dir} is not on your PATH yet: add it in your shell profile, e.g. export PATH="${dir}:$PATH".`
  return { ok: true, path: target, onPath, message: `Installed ${target}: run \`ask-user\` in a new terminal.${hint}` }
}

async function installOnWindows(options: CommandLineInstallOptions): Promise<CommandLineInstallResult> {
  const dir = join(options.resourcesPath, 'bin')
  await access(join(dir, 'ask-user.cmd'))
  const run = options.run ?? runProgram
  // The user Path from the registry (not this process's), appended once; SetEnvironmentVariable tells
  // Explorer, so terminals opened from now on see it.
  const quoted = dir.replace(/'/g, "''")
  const script =
    `$p = [Environment]::GetEnvironmentVariable('Path', 'User'); ` +
    `$parts = @($p -split ';' | Where-Object { $_ -ne '' }); ` +
    `if ($parts -notcontains '${quoted}') { [Environment]::SetEnvironmentVariable('Path', (($parts + '${quoted}') -join ';'), 'User') }`
  await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script])
  return {
    ok: true,
    path: join(dir, 'ask-user.cmd'),
    onPath: true,
    message: `Added ${dir} to your Path: run \`ask-user\` in a new terminal.`,
  }
}

/** /usr/local/bin on macOS when writable without a password, else ~/.local/bin. */
async function binDir(options: CommandLineInstallOptions): Promise<string> {
  if (options.platform === 'darwin') {
    const system = options.systemBinDir ?? '/usr/local/bin'
    try {
      await access(system, constants.W_OK)
      return system
    } catch {
      // not writable: the per-user folder needs no password
    }
  }
  return join(options.userHome, '.local', 'bin')
}

/** Whether `target` is free, an install of ours (a link into an app's resources/bin, or our script), or someone else's. */
async function ownership(target: string, resourcesPath: string): Promise<'free' | 'ours' | 'foreign'> {
  let stat
  try {
    stat = await lstat(target)
  } catch {
    return 'free'
  }
  if (stat.isSymbolicLink()) {
    const link = await readlink(target)
    const ours = link === join(resourcesPath, 'bin', 'ask-user') || /[\\/]resources[\\/]bin[\\/]ask-user$/.test(link)
    return ours ? 'ours' : 'foreign'
  }
  const text = await readFile(target, 'utf8').catch(() => '')
  return text.includes(MARKER) ? 'ours' : 'foreign'
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

function runProgram(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { windowsHide: true }, (error, _stdout, stderr) =>
      error ? reject(new Error(stderr.trim() || error.message)) : resolve(),
    ),
  )
}

/** What the tray's "Install Command Line Tool…" needs from the app. */
export interface CommandLineActionOptions {
  app: Pick<Electron.App, 'isPackaged' | 'getPath'>
  dialog: Pick<Electron.Dialog, 'showMessageBox'>
  platform: Platform
  env: NodeJS.ProcessEnv
  strings(): Strings
  /** `process.resourcesPath`, where the packaged app keeps `bin/ask-user`. */
  resourcesPath: string | undefined
  warn(message: string): void
}

/**
 * The tray action: installs, then tells the person what happened in a message box. Undefined for a
 * development run (there the command comes from the checkout: `npm link`).
 */
export function commandLineAction(options: CommandLineActionOptions): (() => void) | undefined {
  const { resourcesPath } = options
  if (!options.app.isPackaged || resourcesPath === undefined) return undefined
  return () =>
    void installCommandLine({
      platform: options.platform,
      env: options.env,
      resourcesPath,
      userHome: options.app.getPath('home'),
    })
      .then((result) => {
        const strings = options.strings()
        return options.dialog.showMessageBox({
          type: result.ok ? 'info' : 'error',
          message: result.ok ? strings.commandLineInstalled : strings.commandLineNotInstalled,
          detail: result.message,
          buttons: ['OK'],
        })
      })
      .catch((error: Error) => options.warn(`install command line tool: ${error.message}`))
}
