import { PrivateFileError, readPrivateFile } from '../../core/private-files'
import { join } from 'node:path'
import { companionHome, discoverEndpoint } from '../../agent/discovery'
import { AskUserError } from '../../shared/error-codes'
import {
  MintedCodeSchema,
  WINDOW_CODE_PATH,
  WINDOW_CONFIRM_PATH,
  WINDOW_FILE,
  WINDOW_SHOW_PATH,
  WindowFileSchema,
  type WindowFile,
} from '../../shared/window-link'

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
    // Never through a link; a file of another user is refused (NOT_OURS), one of ours tightened to 0600.
    const parsed = WindowFileSchema.safeParse(JSON.parse(await readPrivateFile(file)))
    if (parsed.success) return parsed.data
  } catch (error) {
    if (error instanceof PrivateFileError) throw new AskUserError('NO_PROVIDER', error.message)
  }
  throw new AskUserError(
    'NO_PROVIDER',
    `no window credential in ${home} (the companion writes ${WINDOW_FILE} when it starts); is it running, and is ASK_USER_HOME the same?`,
  )
}

/** Mints a one-time page link with the window credential (`POST /v1/window/code`). */
export async function mintPageLink(window: WindowFile, signal?: AbortSignal): Promise<string> {
  const response = await post(window, WINDOW_CODE_PATH, {}, signal)
  const parsed = MintedCodeSchema.safeParse(await response.json().catch(() => undefined))
  if (!response.ok || !parsed.success)
    throw new AskUserError(
      'NO_PROVIDER',
      `the companion at ${window.page} refused a page link (HTTP ${response.status})`,
    )
  return parsed.data.url
}

/**
 * Asks the companion to bring its own window to the front (`POST /v1/window/show`): true when it did
 * (the desktop app), false when it has none (`ask-user serve` answers 404). Throws `NO_PROVIDER` when
 * it refused the credential or could not be reached.
 */
export async function raiseOwnWindow(window: WindowFile, signal?: AbortSignal): Promise<boolean> {
  const response = await post(window, WINDOW_SHOW_PATH, {}, signal)
  if (response.status === 404) return false
  if (response.ok) return true
  throw new AskUserError(
    'NO_PROVIDER',
    `the companion at ${window.page} refused to show its window (HTTP ${response.status})`,
  )
}

/** Sends the digits a page shows (`POST /v1/window/confirm`); true when they matched. */
export async function confirmPage(window: WindowFile, digits: string, signal?: AbortSignal): Promise<boolean> {
  const response = await post(window, WINDOW_CONFIRM_PATH, { digits }, signal)
  return response.ok
}

async function post(
  window: WindowFile,
  path: string,
  body: object,
  signal: AbortSignal | undefined,
): Promise<Response> {
  try {
    return await fetch(new URL(path, window.page), {
      method: 'POST',
      headers: { Authorization: `Bearer ${window.credential}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: signal ?? AbortSignal.timeout(5_000),
    })
  } catch (error) {
    throw new AskUserError(
      'NO_PROVIDER',
      `cannot reach the companion at ${window.page} (${String((error as { cause?: { code?: string } }).cause?.code ?? error)})`,
    )
  }
}
