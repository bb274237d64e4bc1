// A read-only open of a kernel table (/proc/net/tcp): nothing is written, so private-files.ts has no part in it.
// eslint-disable-next-line no-restricted-imports -- read-only open of /proc/net/tcp{,6}, not a file we own
import { open } from 'node:fs/promises'
import { isIPv4 } from 'node:net'
import { endianness } from 'node:os'

/**
 * Which user owns the other end of a loopback TCP connection, read from Linux's socket tables
 * (`/proc/net/tcp`, `/proc/net/tcp6`): the peer's socket is the row whose local address is our
 * connection's remote one and whose remote address is ours, and its `uid` column is the user that
 * created it. Only IPv4 connections are looked up (the companion listens on 127.0.0.1); a peer with an
 * IPv6 socket dialling 127.0.0.1 appears in `tcp6` under the v4-mapped address `::ffff:127.0.0.1`.
 */

/** One connection as the companion sees it. */
export interface ConnectionEnds {
  localAddress: string
  localPort: number
  remoteAddress: string
  remotePort: number
}

/** The two socket tables, in the order they are searched. */
export type SocketTable = 'tcp' | 'tcp6'

const LITTLE_ENDIAN = endianness() === 'LE'

/** An address as the kernel prints it: each 32-bit word in host byte order, as 8 upper-case hex digits. */
function tableAddress(bytes: number[], littleEndian: boolean): string {
  let text = ''
  for (let word = 0; word < bytes.length; word += 4) {
    const group = bytes.slice(word, word + 4)
    if (littleEndian) group.reverse()
    for (const byte of group) text += byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return text
}

function tableEndpoint(address: string, port: number, table: SocketTable, littleEndian: boolean): string {
  const v4 = address.split('.').map(Number)
  const bytes = table === 'tcp' ? v4 : [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]
  return `${tableAddress(bytes, littleEndian)}:${port.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * The `local_address rem_address` pair of the PEER's row for `ends` in `table` (e.g.
 * `0100007F:C350 0100007F:1F90`), or undefined when the connection is not IPv4.
 */
export function peerRowKey(ends: ConnectionEnds, table: SocketTable, littleEndian = LITTLE_ENDIAN): string | undefined {
  if (!isIPv4(ends.remoteAddress) || !isIPv4(ends.localAddress)) return undefined
  return `${tableEndpoint(ends.remoteAddress, ends.remotePort, table, littleEndian)} ${tableEndpoint(ends.localAddress, ends.localPort, table, littleEndian)}`
}

/**
 * Finds the uid of each wanted row key in the lines of a socket table and adds it to `found`; returns
 * true once every key is found. All keys of one table have the same length, and the kernel prints
 * each row as `<sl>: <local_address> <rem_address> <st> … <uid> …`, so a line is tested by one slice
 * right after its `: ` and split only when it matches.
 */
export function matchTableLines(lines: string[], keys: ReadonlySet<string>, found: Map<string, number>): boolean {
  const keyLength = keys.values().next().value?.length ?? 0
  for (const line of lines) {
    const start = line.indexOf(': ') + 2
    if (start === 1) continue // the header, or a torn line
    const key = line.slice(start, start + keyLength)
    if (!keys.has(key) || found.has(key)) continue
    // "  sl  local_address rem_address   st tx_queue:rx_queue tr:tm->when retrnsmt   uid  timeout inode …"
    const uid = Number(line.trim().split(/\s+/, 8)[7])
    if (Number.isInteger(uid)) found.set(key, uid)
    if (found.size === keys.size) return true
  }
  return found.size === keys.size
}

const CHUNK_BYTES = 64 * 1024

/**
 * Reads `/proc/net/<table>` in chunks until every key in `keys` is found (or the table ends) and
 * returns the uids found. The tables list every socket on the machine, so reading stops as soon as it
 * can. A missing table (no IPv6) reads as empty; other errors reject.
 */
export async function readPeerUids(
  table: SocketTable,
  keys: ReadonlySet<string>,
  root = '/proc/net',
): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  if (keys.size === 0) return found
  let file
  try {
    file = await open(`${root}/${table}`, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && table === 'tcp6') return found
    throw error
  }
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES)
    let carry = ''
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      const lines = (carry + buffer.toString('latin1', 0, bytesRead)).split('\n')
      carry = lines.pop() ?? ''
      if (matchTableLines(lines, keys, found)) return found
    }
    matchTableLines([carry], keys, found)
    return found
  } finally {
    await file.close()
  }
}

/**
 * The uid owning the peer's end of one loopback connection (`tcp`, then `tcp6`), or undefined when it
 * cannot be told (not Linux, not IPv4, the row gone, the tables unreadable). One look-up per call: for
 * a single request (a page redeeming its link), not for every accept (peer-uid-gate.ts batches those).
 */
export async function peerUidOf(ends: Partial<ConnectionEnds>): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined
  const { localAddress, localPort, remoteAddress, remotePort } = ends
  if (localAddress === undefined || localPort === undefined || remoteAddress === undefined || remotePort === undefined)
    return undefined
  const full = { localAddress, localPort, remoteAddress, remotePort }
  try {
    for (const table of ['tcp', 'tcp6'] as const) {
      const key = peerRowKey(full, table)
      if (key === undefined) return undefined
      const uid = (await readPeerUids(table, new Set([key]))).get(key)
      if (uid !== undefined) return uid
    }
  } catch {
    return undefined
  }
  return undefined
}
