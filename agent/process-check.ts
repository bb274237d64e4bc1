// Whether a process still runs, as seen from this one: the agent side's one answer (the companion's own
// start-up check lives in core/discovery.ts, a layer the agent side does not load).
import { readlinkSync } from 'node:fs'

/** True when a process with this pid exists; EPERM means it exists but belongs to another user (sudo). */
export function pidExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** This process's pid namespace on Linux (`pid:[inode]`), else undefined (other systems have none). */
export function ownPidNamespace(): string | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return undefined
  }
}

/**
 * True only when the process a discovery file names is known to be gone: its pid is checked only when
 * the file was written in this pid namespace (the same `pidNamespace`, or none on either side off
 * Linux), since a client in a container cannot see the host's pids.
 */
export function knownGone(pid: number, pidNamespace: string | undefined): boolean {
  return pidNamespace === ownPidNamespace() && !pidExists(pid)
}
