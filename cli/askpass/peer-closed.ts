import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** `st` of a TCP socket in /proc/net/tcp: the peer closed its side and we have not (yet). */
const CLOSE_WAIT = '08'
const ESTABLISHED = '01'

/**
 * Linux only: true when process `pid` (the ssh that asked) holds TCP sockets and the server closed
 * every one of them (all in CLOSE_WAIT). That is what sshd's LoginGraceTime does while ssh waits on
 * the helper: ssh does not notice until the helper returns, so the helper withdraws its card instead
 * of letting the person type a password for a connection that is gone. False when it cannot tell
 * (another OS, another user's process, no sockets).
 */
export function serverClosedConnection(pid: number): boolean {
  let inodes: Set<string>
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
          return match ? [match[1]!] : []
        } catch {
          return []
        }
      }),
    )
  } catch {
    return false
  }
  if (inodes.size === 0) return false
  const states: string[] = []
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length > 9 && inodes.has(fields[9]!)) states.push(fields[3]!)
    }
  }
  return states.length > 0 && states.includes(CLOSE_WAIT) && !states.includes(ESTABLISHED)
}
