import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { companionHome, discoverEndpoint } from '../../agent/discovery'
import { AskUserError } from '../../shared/error-codes'
import { MintedCodeSchema, WINDOW_CODE_PATH, WINDOW_CONFIRM_PATH, WINDOW_FILE, WindowFileSchema, type WindowFile } from '../../shared/window-link'

/**
 * The running companion's window credential from `window.json` in its home. Only a local user with the
 * home folder has it: `ASK_USER_URL`/`ASK_USER_TOKEN` (a forwarded agent token) never lead here. The
 * companion behind endpoint.json must be alive first (a stale file names a dead pid), so the
 * credential is never sent to whatever took a dead companion's port. Throws `NO_PROVIDER`.
 */
export async function readWindowCredential(env: NodeJS.ProcessEnv): Promise<WindowFile> {
  const home = companionHome(env)
  await discoverEndpoint({ ...env, ASK_USER_URL: '' })
  const file = join(home, WINDOW_FILE)
  try {
    if (process.platform !== 'win32') {
      const info = await stat(file)
      const ours = typeof process.getuid !== 'function' || info.uid === process.getuid()
      if (!ours || (info.mode & 0o077) !== 0) {
        throw new AskUserError('NO_PROVIDER', `refusing to use ${file}: it must be yours with mode 600 (it is uid ${info.uid}, mode ${(info.mode & 0o777).toString(8)})`)
      }
    }
    const parsed = WindowFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    if (parsed.success) return parsed.data
  } catch (error) {
    if (error instanceof AskUserError) throw error
  }
  throw new AskUserError('NO_PROVIDER', `no window credential in ${home} (the companion writes ${WINDOW_FILE} when it starts); is it running, and is ASK_USER_HOME the same?`)
}

/** Mints a one-time page link with the window credential (`POST /v1/window/code`). */
export async function mintPageLink(window: WindowFile, signal?: AbortSignal): Promise<string> {
  const response = await post(window, WINDOW_CODE_PATH, {}, signal)
  const parsed = MintedCodeSchema.safeParse(await response.json().catch(() => undefined))
  if (!response.ok || !parsed.success) throw new AskUserError('NO_PROVIDER', `the companion at ${window.page} refused a page link (HTTP ${response.status})`)
  return parsed.data.url
}

/** Sends the digits a page shows (`POST /v1/window/confirm`); true when they matched. */
export async function confirmPage(window: WindowFile, digits: string, signal?: AbortSignal): Promise<boolean> {
  const response = await post(window, WINDOW_CONFIRM_PATH, { digits }, signal)
  return response.ok
}

async function post(window: WindowFile, path: string, body: object, signal: AbortSignal | undefined): Promise<Response> {
  try {
    return await fetch(new URL(path, window.page), {
      method: 'POST',
      headers: { Authorization: `Bearer ${window.credential}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: signal ?? AbortSignal.timeout(5_000),
    })
  } catch (error) {
    throw new AskUserError('NO_PROVIDER', `cannot reach the companion at ${window.page} (${String((error as { cause?: { code?: string } }).cause?.code ?? error)})`)
  }
}
