import { readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ENDPOINT_FILE } from '../shared/endpoint'
import { EndpointFileSchema, PROTOCOL_VERSION, type EndpointFile } from '../shared/wire'
import { isErrnoCode, readPrivateFile, removeFile, writeFileAtomic } from './private-files'

/** Thrown by {@link assertNoLiveOwner} when another running companion owns the discovery file. */
export class CompanionRunningError extends Error {
  override readonly name = 'CompanionRunningError'
  constructor(
    readonly pid: number,
    readonly url: string,
  ) {
    super(`another companion is running (pid ${pid}) at ${url}; run \`ask-user open\` for its window`)
  }
}

/** True when a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return isErrnoCode(error, 'EPERM')
  }
}

/** Reads and validates `endpoint.json`; `undefined` when missing or unreadable. Never throws. */
export async function readEndpointFile(home: string): Promise<EndpointFile | undefined> {
  try {
    const parsed = EndpointFileSchema.safeParse(JSON.parse(await readPrivateFile(join(home, ENDPOINT_FILE))))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * Refuses to start over a live companion: throws {@link CompanionRunningError} when `endpoint.json`
 * names a live pid other than ours. A file naming a dead pid (or our own), or a corrupt file, is stale
 * and will be replaced.
 */
export async function assertNoLiveOwner(home: string): Promise<void> {
  const current = await readEndpointFile(home)
  if (current && current.pid !== process.pid && isProcessAlive(current.pid)) {
    throw new CompanionRunningError(current.pid, current.url)
  }
}

/** Writes `endpoint.json` atomically, mode 0600 (the folder must already be 0700). */
export async function writeEndpointFile(home: string, url: string, token: string): Promise<void> {
  const namespace = pidNamespace()
  const file: EndpointFile = {
    protocol: PROTOCOL_VERSION,
    url,
    token,
    pid: process.pid,
    ...(namespace ? { pidNamespace: namespace } : {}),
  }
  await writeFileAtomic(join(home, ENDPOINT_FILE), `${JSON.stringify(file)}\n`)
}

/** Removes `endpoint.json` only if it still holds our token (another companion may have replaced it). */
export async function removeEndpointFile(home: string, token: string): Promise<void> {
  const current = await readEndpointFile(home)
  if (current?.token !== token) return
  await removeFile(join(home, ENDPOINT_FILE))
}

/** This process's pid namespace on Linux (`pid:[inode]`), else undefined. */
export function pidNamespace(): string | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return undefined
  }
}
