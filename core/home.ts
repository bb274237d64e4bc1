import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { companionHome } from '../shared/home-folder'

export { APP_FOLDER } from '../shared/home-folder'

/** The companion's home folder by the shared rule (`companionHome` in shared/), with Node's paths. Pure. */
export function resolveHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return companionHome(env, platform, { userHome: homedir(), resolvePath: resolve })
}
