import { readFileSync } from 'node:fs'

/** The two ends of a loopback TCP connection, as the companion's socket sees them. */
export interface TcpEnds {
  /** The peer's address and port (`socket.remoteAddress`, `socket.remotePort`). */
  remoteAddress: string | undefined
  remotePort: number | undefined
  /** The companion's own port (`socket.localPort`). */
  localPort: number | undefined
}

/**
 * The uid that owns the peer's end of a loopback TCP connection, from the kernel's socket tables
 * (`/proc/net/tcp`, `/proc/net/tcp6`: the row whose local end is the peer's port and whose remote end
 * is ours). `undefined` when it cannot be told: not Linux, /proc unreadable, the row gone (the peer
 * closed). Costs one read of the table; call it once per connection, never per frame.
 */
export function peerUid(ends: TcpEnds, read: (path: string) => string = readTable): number | undefined {
  if (process.platform !== 'linux' || ends.remotePort === undefined || ends.localPort === undefined) return undefined
  const peer = hexPort(ends.remotePort)
  const ours = hexPort(ends.localPort)
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = read(table)
    } catch {
      continue
    }
    const uid = findUid(text, peer, ours)
    if (uid !== undefined) return uid
  }
  return undefined
}

/** True when the peer's socket is known to belong to the user the companion runs as. */
export function peerIsSameUser(ends: TcpEnds): boolean | undefined {
  const uid = peerUid(ends)
  if (uid === undefined || typeof process.getuid !== 'function') return undefined
  return uid === process.getuid()
}

function readTable(path: string): string {
  return readFileSync(path, 'latin1')
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0')
}

/**
 * Scans a /proc/net/tcp table: columns are `sl local_address rem_address st … uid …` with addresses as
 * `HEXADDR:HEXPORT`. Only loopback rows count (127.0.0.0/8, ::1 and ::ffff:127.x), so a port reused on
 * another interface never matches.
 */
function findUid(table: string, peerPort: string, ourPort: string): number | undefined {
  const lines = table.split('\n')
  for (let i = 1; i < lines.length; i++) {
    const fields = lines[i]!.trim().split(/\s+/)
    if (fields.length < 8) continue
    const local = fields[1]!
    const remote = fields[2]!
    if (!local.endsWith(`:${peerPort}`) || !remote.endsWith(`:${ourPort}`)) continue
    if (!isLoopbackHex(local) || !isLoopbackHex(remote)) continue
    const uid = Number(fields[7])
    if (Number.isInteger(uid)) return uid
  }
  return undefined
}

/** Loopback in /proc's hex form: IPv4 127.x (little-endian: ends in 7F), ::1, or ::ffff:127.x. */
function isLoopbackHex(endpoint: string): boolean {
  const address = endpoint.slice(0, endpoint.indexOf(':'))
  if (address.length === 8) return address.endsWith('7F')
  if (address === '00000000000000000000000001000000') return true
  return address.length === 32 && address.startsWith('0000000000000000FFFF0000') && address.endsWith('7F')
}
