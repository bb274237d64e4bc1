import { constants } from 'node:fs'
// A read-only open (O_RDONLY | O_NOFOLLOW), so the owner and mode checked are those of the file read.
// eslint-disable-next-line no-restricted-imports -- agent/ cannot import core/private-files.ts; nothing is written
import { open } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { ENDPOINT_FILE, STATUS_PATH } from '../shared/endpoint'
import { AskUserError } from '../shared/error-codes'
import { companionHome as sharedCompanionHome } from '../shared/home-folder'
import { EndpointFileSchema } from '../shared/wire'
import { noCompanion } from './errors'
import { knownGone } from './process-check'

export { APP_FOLDER } from '../shared/home-folder'
export { ENDPOINT_FILE } from '../shared/endpoint'

/** Where and how to reach the companion's agent endpoint. */
export interface Endpoint {
  /** The agent endpoint, e.g. `ws://127.0.0.1:4567/v1/agent`. */
  url: string
  token: string
  /** `env` for `ASK_USER_URL` + `ASK_USER_TOKEN`, else the discovery file's path. */
  source: 'env' | { file: string }
}

/** The companion's home folder by the shared rule (`companionHome` in shared/), with Node's paths. Pure. */
export function companionHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return sharedCompanionHome(env, platform, { userHome: homedir(), resolvePath: resolve })
}

function checkUrl(url: string, from: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new AskUserError('NO_PROVIDER', `${from} is not a URL: "${url}"`)
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new AskUserError('NO_PROVIDER', `${from} must be a ws:// or wss:// URL, got "${url}"`)
  }
  return url
}

/**
 * Finds the companion, afresh on every call: `ASK_USER_URL` + `ASK_USER_TOKEN` when `ASK_USER_URL` is set,
 * else `endpoint.json` in {@link companionHome}. Throws `NO_PROVIDER` with a message that says how to
 * start the companion when there is none, and refuses (on POSIX) a discovery file that another user owns
 * or that group or others may read or write, since it holds the token and names the endpoint.
 */
export async function discoverEndpoint(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<Endpoint> {
  const url = env['ASK_USER_URL']
  if (url !== undefined && url.trim() !== '') {
    const token = env['ASK_USER_TOKEN'] ?? (await tokenFromFile(env['ASK_USER_TOKEN_FILE'], platform))
    if (token === undefined || token.trim() === '') {
      throw new AskUserError(
        'NO_PROVIDER',
        'ASK_USER_URL is set but neither ASK_USER_TOKEN_FILE nor ASK_USER_TOKEN is; set one of them, or unset ASK_USER_URL',
      )
    }
    return { url: checkUrl(url.trim(), 'ASK_USER_URL'), token: token.trim(), source: 'env' }
  }
  const file = join(companionHome(env, platform), ENDPOINT_FILE)
  let text: string
  try {
    text = await readEndpointText(file, platform)
  } catch (error) {
    if (error instanceof AskUserError) throw error
    throw noCompanion(
      `no Ask User Companion is running (no ${ENDPOINT_FILE} in ${companionHome(env, platform)})`,
      error,
    )
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsed = EndpointFileSchema.safeParse(json)
  if (!parsed.success) throw noCompanion(`the discovery file ${file} is not valid`)
  if (knownGone(parsed.data.pid, parsed.data.pidNamespace)) {
    throw noCompanion(`no Ask User Companion is running (${file} names pid ${parsed.data.pid}, which has exited)`)
  }
  return { url: checkUrl(parsed.data.url, file), token: parsed.data.token, source: { file } }
}

// O_NOFOLLOW: a link in the file's place is refused (ELOOP), so the checks below are of the file read.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * The text of the discovery file, checked on the open file itself, owner first, then mode (no checks
 * on Windows): a file another user wrote could point this client, and the person's answers, at their
 * endpoint. Throws `NO_PROVIDER` saying what to do; a missing file throws ENOENT.
 */
async function readEndpointText(file: string, platform: NodeJS.Platform): Promise<string> {
  return readOwnFile(
    file,
    platform,
    "it holds the companion's token. Run `chmod 600 " + file + '` and restart the companion',
  )
}

/**
 * A secret file of the person's, read through O_NOFOLLOW and checked on the open file: owner first, then
 * mode (no checks on Windows). `fix` ends the message for a file others may read. Throws `NO_PROVIDER`.
 */
export async function readOwnFile(file: string, platform: NodeJS.Platform, fix: string): Promise<string> {
  const handle = await open(file, platform === 'win32' ? constants.O_RDONLY : READ_FLAGS).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error
    throw new AskUserError(
      'NO_PROVIDER',
      `refusing to use ${file}: it is a symbolic link, and the companion only ever writes a plain file there. Remove it and restart the companion`,
    )
  })
  try {
    if (platform !== 'win32') {
      const { mode, uid } = await handle.stat()
      const ours = process.getuid?.()
      if (ours !== undefined && uid !== ours) {
        throw new AskUserError(
          'NO_PROVIDER',
          `refusing to use ${file}: it belongs to uid ${uid}, not to you (uid ${ours}), so another user could have ` +
            `written it to take your answers. Remove it (as its owner or root) and restart the companion`,
        )
      }
      if ((mode & 0o077) !== 0) {
        throw new AskUserError(
          'NO_PROVIDER',
          `refusing to use ${file}: other users may read or write it (mode ${(mode & 0o777).toString(8)}); ${fix}`,
        )
      }
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

/** The status URL next to an agent endpoint URL: `ws://h:p/v1/agent` → `http://h:p/v1/status`. */
export function statusUrl(agentUrl: string): string {
  const url = new URL(agentUrl)
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:'
  url.pathname = STATUS_PATH
  url.search = ''
  url.hash = ''
  return url.toString()
}

/**
 * The token in `ASK_USER_TOKEN_FILE` (as the `ssh -R` recipe leaves it: written over stdin, mode 0600),
 * so that no token sits in an environment variable that children inherit; checked like endpoint.json.
 */
async function tokenFromFile(path: string | undefined, platform: NodeJS.Platform): Promise<string | undefined> {
  if (path === undefined || path.trim() === '') return undefined
  try {
    return (await readOwnFile(path, platform, `run \`chmod 600 ${path}\``)).trim()
  } catch (error) {
    if (error instanceof AskUserError) throw error
    throw new AskUserError(
      'NO_PROVIDER',
      `cannot read ASK_USER_TOKEN_FILE ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    )
  }
}
