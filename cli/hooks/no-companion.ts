// Whether there is plainly no companion to ask, found without zod or the client: then `ask-user hook`
// gets out of the harness's way without loading them (docs/performance.md, "Start-up of spawned commands").
import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { START_HINT } from '../../agent/start-hint'
import { companionHome, ENDPOINT_FILE } from '../../shared/home-folder'

/**
 * The reason there is no companion when `ASK_USER_URL` is unset and no discovery file exists in the
 * companion's home: exactly the message the client's discovery gives then. Undefined when a companion
 * may be running (the client then finds out, with its own messages for every other case).
 */
export async function noCompanionReason(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const url = env['ASK_USER_URL']
  if (url !== undefined && url.trim() !== '') return undefined
  const home = companionHome(env, platform, { userHome: homedir(), resolvePath: resolve })
  try {
    await stat(join(home, ENDPOINT_FILE))
    return undefined
  } catch {
    return `no Ask User Companion is running (no ${ENDPOINT_FILE} in ${home}); ${START_HINT}`
  }
}
