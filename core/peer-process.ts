import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** Where a loopback TCP connection comes from: the peer's port and the companion's own port. */
export interface LoopbackPeer {
  /** The connection's remote port as the companion sees it (the peer's local port). */
  peerPort: number
  serverPort: number
}

/** 127.0.0.1 as /proc/net/tcp writes it, and as a v4-mapped address in /proc/net/tcp6. */
const LOOPBACK_V4 = '0100007F'
const LOOPBACK_MAPPED = '0000000000000000FFFF00000100007F'
const ESTABLISHED = '01'

/**
 * The socket inode of the peer's end of an established loopback connection: the row of
 * /proc/net/tcp (then tcp6) whose local address is 127.0.0.1:`peerPort` and remote 127.0.0.1:`serverPort`.
 * Undefined when there is none (not Linux, another network namespace, the peer already closed).
 * `read` is injectable for tests.
 */
export function peerSocketInode(
  peer: LoopbackPeer,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): string | undefined {
  const hex = (port: number): string => port.toString(16).toUpperCase().padStart(4, '0')
  const local = [`${LOOPBACK_V4}:${hex(peer.peerPort)}`, `${LOOPBACK_MAPPED}:${hex(peer.peerPort)}`]
  const remote = [`${LOOPBACK_V4}:${hex(peer.serverPort)}`, `${LOOPBACK_MAPPED}:${hex(peer.serverPort)}`]
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = read(table)
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10 || fields[3] !== ESTABLISHED) continue
      if (local.includes(fields[1]!) && remote.includes(fields[2]!) && fields[9] !== '0') return fields[9]
    }
  }
  return undefined
}

/** True when process `pid` has an open file descriptor on socket `inode`. */
export function holdsSocket(pid: number, inode: string): boolean {
  const target = `socket:[${inode}]`
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return false
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === target
    } catch {
      return false
    }
  })
}

/**
 * Every process whose file descriptors this process may read that holds socket `inode` (a scan of
 * /proc/<pid>/fd; processes of other users are unreadable to a non-root companion and simply not seen).
 */
export function socketHolders(inode: string): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => holdsSocket(pid, inode))
}
