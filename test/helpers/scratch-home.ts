// Removing a scratch HOME that third-party programs ran in. Killing a harness's process group does not
// end everything it started: a hook or `ask-user mcp` in another group may still be exiting, and writes
// its compile cache into HOME after a plain `rm` (the leftover `ask-user-claude-pty-home-*/.cache`).
import { readdirSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'

/** The pids of processes (other than this one) whose environment has `HOME=<home>`; none off Linux. */
export function processesWithHome(home: string): number[] {
  if (process.platform !== 'linux') return []
  const marker = `HOME=${home}`
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker)) pids.push(pid)
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids
}

/**
 * Kills every process still running with `HOME=<home>` (they were started by this test for that home
 * alone), waits until they are gone (bounded by `timeoutMs`, the machine may be loaded), then removes it.
 */
export async function removeScratchHome(home: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let pids = processesWithHome(home); pids.length > 0 && Date.now() < deadline; pids = processesWithHome(home)) {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    // polling interval of a wait bounded by `deadline`: a process that is not our child gives no exit event
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await rm(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
}
