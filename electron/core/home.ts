import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { defaultHomeFolder } from '../../shared/home-folder'

export { APP_FOLDER } from '../../shared/home-folder'

/**
 * The companion's home folder (endpoint.json, settings.json, history.jsonl): `ASK_USER_HOME` when set
 * and non-empty, else the per-user app-data folder of `defaultHomeFolder` (shared with the agents).
 * Pure: creates nothing.
 */
export function resolveHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const override = env['ASK_USER_HOME']
  if (override !== undefined && override.trim() !== '') return resolve(override)
  return defaultHomeFolder(env, platform, homedir())
}
