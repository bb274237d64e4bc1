// Why `ask-user status` found no companion when endpoint.json is there: the pid it names has exited.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { companionHome } from '../../agent/discovery'
import { ownPidNamespace, pidExists } from '../../agent/process-check'
import { START_HINT } from '../../agent/start-hint'
import { ENDPOINT_FILE } from '../../shared/endpoint'
import { EndpointFileSchema } from '../../shared/wire'

/**
 * `stale <path to endpoint.json>: pid N is not running; <how to start one>` when the discovery file names a process that
 * does not exist in this pid namespace (the companion that wrote it crashed or was killed), else
 * `undefined` (no file, `ASK_USER_URL` set, a live pid, or a pid of another namespace, which cannot be
 * checked from here). Reads only the pid: the token in the file is never part of the sentence.
 */
export async function staleEndpointNote(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if ((env['ASK_USER_URL'] ?? '').trim() !== '') return undefined
  const file = join(companionHome(env), ENDPOINT_FILE)
  let json: unknown
  try {
    json = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
  const parsed = EndpointFileSchema.safeParse(json)
  if (!parsed.success) return undefined
  const { pid, pidNamespace } = parsed.data
  // Called after the dial failed, so a file that records no namespace (an older companion wrote it) is
  // checked too; discovery itself (knownGone) gives such a file the benefit of the doubt.
  const checkable = pidNamespace === undefined || pidNamespace === ownPidNamespace()
  return checkable && !pidExists(pid) ? `stale ${file}: pid ${pid} is not running; ${START_HINT}` : undefined
}
