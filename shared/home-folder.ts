/** Folder name of the companion's per-user data. */
export const APP_FOLDER = 'ask-user-companion'

/** File name of the discovery file in the companion's home folder (here, not beside its zod schema, so zod-free code can name it). */
export const ENDPOINT_FILE = 'endpoint.json'

/** The platforms whose app-data conventions differ; everything else follows the XDG rule. */
export type HomePlatform = 'win32' | 'darwin' | string

/**
 * The companion's per-user data folder when `ASK_USER_HOME` is not set — one rule for the companion
 * and its agents, so both find `endpoint.json` in the same place: `%APPDATA%\ask-user-companion` on
 * Windows, `~/Library/Application Support/ask-user-companion` on macOS, `$XDG_CONFIG_HOME/ask-user-companion`
 * (default `~/.config`) elsewhere. Pure string work (no Node): `userHome` is the caller's `os.homedir()`.
 */
export function defaultHomeFolder(
  env: Readonly<Record<string, string | undefined>>,
  platform: HomePlatform,
  userHome: string,
): string {
  const home = env['HOME'] || userHome
  if (platform === 'win32') {
    const appData = env['APPDATA'] || [env['USERPROFILE'] || home, 'AppData', 'Roaming'].join('\\')
    return `${appData}\\${APP_FOLDER}`
  }
  if (platform === 'darwin') return [home, 'Library', 'Application Support', APP_FOLDER].join('/')
  return [env['XDG_CONFIG_HOME'] || `${home}/.config`, APP_FOLDER].join('/')
}

/** What the home-folder rule needs from its runtime: Node's `os.homedir()` and `path.resolve`. */
export interface HomeRuntime {
  userHome: string
  resolvePath(path: string): string
}

/**
 * The companion's home folder (endpoint.json, settings.json, history.jsonl), the one rule for the
 * companion and its agents: `ASK_USER_HOME` when set and not blank (made absolute), else
 * {@link defaultHomeFolder}. Pure: creates nothing.
 */
export function companionHome(
  env: Readonly<Record<string, string | undefined>>,
  platform: HomePlatform,
  runtime: HomeRuntime,
): string {
  const override = env['ASK_USER_HOME']
  if (override !== undefined && override.trim() !== '') return runtime.resolvePath(override)
  return defaultHomeFolder(env, platform, runtime.userHome)
}
