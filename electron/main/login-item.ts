import { homedir } from 'node:os'
import { join } from 'node:path'
import type * as Electron from 'electron'
import type { Platform } from './electron-api'
import { errorMessage } from '../../shared/describe-error'
import { ensureFolderSync, removeFileSync, writeFileAtomicSync } from '../../core/private-files-sync'

/** Command-line flag of a launch at login: the app starts in the tray without showing its window. */
export const HIDDEN_FLAG = '--hidden'

/** Where an XDG desktop (Linux) looks for autostart entries. */
export function autostartPath(env: NodeJS.ProcessEnv): string {
  const config = env['XDG_CONFIG_HOME'] || join(homedir(), '.config')
  return join(config, 'autostart', 'ask-user-companion.desktop')
}

/**
 * Registers or unregisters the app as a login item: `app.setLoginItemSettings` on macOS (the main app
 * as an SMAppService login item on macOS 13+; a registration the OS did not enable, e.g. waiting for
 * the person's approval in System Settings, is reported to `warn`) and on Windows (with `--hidden`,
 * since only Windows passes arguments to a login item); an XDG autostart entry on Linux (Electron has
 * no login items there), launching the AppImage when the app runs from one. Failures are reported to
 * `warn`, never thrown.
 */
export function applyLoginItem(
  app: Electron.App,
  platform: Platform,
  enabled: boolean,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void = console.warn,
): void {
  try {
    if (platform === 'darwin') {
      app.setLoginItemSettings({ openAtLogin: enabled })
      const status = enabled ? app.getLoginItemSettings().status : 'enabled'
      if (status !== 'enabled') warn(macLoginItemWarning(status))
      return
    }
    if (platform === 'win32') {
      app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] })
      return
    }
    const path = autostartPath(env)
    if (!enabled) {
      removeFileSync(path)
      return
    }
    const exec = env['APPIMAGE'] || process.execPath
    ensureFolderSync(join(path, '..'))
    writeFileAtomicSync(
      path,
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Ask User Companion',
        `Exec=${execArgument(exec)} ${HIDDEN_FLAG}`,
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
      { mode: 0o644 }, // as before: an autostart entry, no secret in it
    )
  } catch (error) {
    warn(`start at login could not be ${enabled ? 'enabled' : 'disabled'}: ${errorMessage(error)}`)
  }
}

/**
 * One argument of a desktop entry's `Exec` key, per the freedesktop Desktop Entry spec: quoted, with
 * `"`, `` ` ``, `$` and `\` escaped for the quoting, then every `\` escaped again because `Exec` is a
 * string value (a literal backslash ends up as four), and `%` doubled (it starts a field code).
 */
export function execArgument(arg: string): string {
  const quoted = `"${arg.replace(/(["`$\\])/g, '\\$1')}"`
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%')
}

/** Why a macOS login item did not take effect, from its SMAppService status. */
function macLoginItemWarning(status: Electron.LoginItemSettings['status']): string {
  return status === 'requires-approval'
    ? 'start at login waits for your approval in System Settings > General > Login Items'
    : `start at login did not take effect (login item status: ${status}; macOS needs a signed, notarized app)`
}

/**
 * True when this launch came from the login item (start hidden in the tray): the `--hidden` argument
 * (Windows login item, Linux autostart entry), or on macOS `wasOpenedAtLogin` (macOS passes no
 * arguments to a login item).
 */
export function launchedAtLogin(app: Electron.App, platform: Platform, argv: readonly string[]): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true
}
