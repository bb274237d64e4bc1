import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type * as Electron from 'electron'
import type { Platform } from './electron-api'

/** Command-line flag of a launch at login: the app starts in the tray without showing its window. */
export const HIDDEN_FLAG = '--hidden'

/** Where an XDG desktop (Linux) looks for autostart entries. */
export function autostartPath(env: NodeJS.ProcessEnv): string {
  const config = env['XDG_CONFIG_HOME'] || join(homedir(), '.config')
  return join(config, 'autostart', 'ask-user-companion.desktop')
}

/**
 * Registers or unregisters the app as a login item: `app.setLoginItemSettings` on macOS and Windows;
 * an XDG autostart entry on Linux (Electron has no login items there), launching the AppImage when the
 * app runs from one. Failures are reported to `warn`, never thrown.
 */
export function applyLoginItem(
  app: Electron.App,
  platform: Platform,
  enabled: boolean,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void = console.warn,
): void {
  try {
    if (platform === 'darwin' || platform === 'win32') {
      app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] })
      return
    }
    const path = autostartPath(env)
    if (!enabled) {
      rmSync(path, { force: true })
      return
    }
    const exec = env['APPIMAGE'] || process.execPath
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(
      path,
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Ask User Companion',
        `Exec="${exec.replace(/(["`$\\])/g, '\\$1')}" ${HIDDEN_FLAG}`,
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    )
  } catch (error) {
    warn(`start at login could not be ${enabled ? 'enabled' : 'disabled'}: ${(error as Error).message}`)
  }
}

/** True when this launch came from the login item (start hidden in the tray). */
export function launchedAtLogin(app: Electron.App, platform: Platform, argv: readonly string[]): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true
}
