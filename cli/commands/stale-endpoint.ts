// Why `ask-user status` found no companion when endpoint.json is there: the pid it names has exited.
import { readlinkSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { companionHome } from '../../agent/discovery'
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
  if (pidNamespace !== undefined && pidNamespace !== ownPidNamespace()) return undefined
  return isRunning(pid) ? undefined : `stale ${file}: pid ${pid} is not running; ${START_HINT}`
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function ownPidNamespace(): string | undefined {
  try {
    return process.platform === 'linux' ? readlinkSync('/proc/self/ns/pid') : undefined
  } catch {
    return undefined
  }
}
