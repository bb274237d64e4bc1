import type { Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { peerRowKey, readPeerUids, type SocketTable } from './peer-uid'

/** What {@link createPeerUidGate} needs. */
export interface PeerUidGateOptions {
  /** The companion's own uid; its peers and root's are let through. */
  ownUid: number
  /** Called for each socket whose peer belongs to another user; it decides what to close. */
  foreign(socket: Socket): void
  warn(message: string): void
  /** Folder of the socket tables (tests point it elsewhere); default `/proc/net`. */
  tablesDir?: string
  /** Milliseconds clock for the rest between reads; default `performance.now`. */
  now?: () => number
}

/** Checks the owner of each accepted connection's peer socket; see {@link createPeerUidGate}. */
export interface PeerUidGate {
  /** Queues `socket` for the next look-up; its verdict comes later (never delays the connection). */
  check(socket: Socket): void
  /** Sockets found to belong to another user so far. */
  readonly foreignSeen: number
}

/**
 * The Linux peer-uid gate: a connection whose peer socket belongs to a user other than ours or root
 * cannot hold the token (it lives in our private home), so it is reported to `foreign` as soon as it is
 * looked up. Look-ups are batched: every connection accepted while one read of the socket tables is
 * under way waits for the next one, so a burst of accepts costs one read, and at most one read runs
 * at a time. Each read stops as soon as the batch's rows are found. The kernel takes tens of
 * milliseconds to print a table of ten thousand sockets, so after each read the gate rests as long as
 * the read took: under a sustained flood it uses at most half of one thread, and the pre-auth budget
 * bounds what arrives meanwhile. A connection whose row is not
 * found (the peer already left, or an IPv6 connection) is let through: the pre-auth budget still
 * bounds it. Returns undefined where there are no such tables (not Linux, or no `getuid`).
 * A table that cannot be read turns the gate off with one warning.
 */
export function createPeerUidGate(options: PeerUidGateOptions): PeerUidGate | undefined {
  if (process.platform !== 'linux') return undefined
  let queue: Socket[] = []
  let scheduled = false
  let broken = false
  let foreignSeen = 0

  const now = options.now ?? (() => performance.now())
  /** No read starts before this: after a read of d ms the gate rests d ms (at most half of one thread). */
  let restUntil = 0

  const schedule = (): void => {
    if (scheduled || broken || queue.length === 0) return
    scheduled = true
    const rest = restUntil - now()
    if (rest > 0) setTimeout(() => void lookUp(), rest).unref()
    else setImmediate(() => void lookUp())
  }

  const lookUp = async (): Promise<void> => {
    const batch = queue.filter((socket) => !socket.destroyed)
    queue = []
    const started = now()
    try {
      const uids = await uidsOf(batch, options.tablesDir)
      for (const [socket, uid] of uids) {
        if (uid === 0 || uid === options.ownUid || socket.destroyed) continue
        foreignSeen++
        options.foreign(socket)
      }
    } catch (error) {
      broken = true
      queue = []
      options.warn(`the peer-uid check is off: cannot read the socket tables (${(error as Error).message})`)
    } finally {
      const finished = now()
      restUntil = finished + (finished - started)
      scheduled = false
      schedule()
    }
  }

  return {
    check(socket) {
      if (broken) return
      queue.push(socket)
      schedule()
    },
    get foreignSeen() {
      return foreignSeen
    },
  }
}

/** The peer uid of each socket of `batch` whose row is found, searching `tcp`, then `tcp6` for the rest. */
async function uidsOf(batch: Socket[], tablesDir: string | undefined): Promise<Map<Socket, number>> {
  const result = new Map<Socket, number>()
  let rest = batch
  for (const table of ['tcp', 'tcp6'] as SocketTable[]) {
    const keyed = new Map<string, Socket>()
    for (const socket of rest) {
      const key = peerRowKey(endsOf(socket), table)
      if (key !== undefined) keyed.set(key, socket)
    }
    if (keyed.size === 0) break
    const found = await readPeerUids(table, new Set(keyed.keys()), tablesDir)
    for (const [key, uid] of found) result.set(keyed.get(key)!, uid)
    rest = [...keyed.values()].filter((socket) => !result.has(socket))
  }
  return result
}

function endsOf(socket: Socket): {
  localAddress: string
  localPort: number
  remoteAddress: string
  remotePort: number
} {
  return {
    localAddress: socket.localAddress ?? '',
    localPort: socket.localPort ?? 0,
    remoteAddress: socket.remoteAddress ?? '',
    remotePort: socket.remotePort ?? 0,
  }
}
