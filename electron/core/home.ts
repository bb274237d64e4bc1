import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** Folder name of the companion's per-user data. */
export const APP_FOLDER = 'ask-user-companion'

/**
 * The companion's home folder (endpoint.json, settings.json, history.jsonl): `ASK_USER_HOME` when set
 * and non-empty, else the per-user app-data folder: `%APPDATA%\ask-user-companion` on Windows,
 * `~/Library/Application Support/ask-user-companion` on macOS, `$XDG_CONFIG_HOME/ask-user-companion`
 * (default `~/.config`) elsewhere. Pure: creates nothing.
 */
export function resolveHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const override = env['ASK_USER_HOME']
  if (override !== undefined && override.trim() !== '') return resolve(override)
  const home = env['HOME'] || homedir()
  if (platform === 'win32') return join(env['APPDATA'] || join(env['USERPROFILE'] || home, 'AppData', 'Roaming'), APP_FOLDER)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER)
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_FOLDER)
}
