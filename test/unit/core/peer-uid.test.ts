// The Linux peer-uid look-up: row keys as the kernel prints them, the chunked table read (against
// written tables and the machine's real /proc/net/tcp), and the gate that batches look-ups.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPeerUidGate } from '../../../core/peer-uid-gate'
import { peerRowKey, readPeerUids } from '../../../core/peer-uid'

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode'

/** One table row as the kernel prints it, for `key` (`local rem`) owned by `uid`. */
function row(index: number, key: string, uid: number): string {
  const [local, rem] = key.split(' ')
  return `${String(index).padStart(4)}: ${local} ${rem} 01 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 ${40000 + index} 1 0000000000000000 20 4 30 10 -1`
}

const ends = { localAddress: '127.0.0.1', localPort: 8080, remoteAddress: '127.0.0.1', remotePort: 50000 }

describe('peer row keys', () => {
  it('prints addresses word by word in host order and ports in hex', () => {
    expect(peerRowKey(ends, 'tcp', true)).toBe('0100007F:C350 0100007F:1F90')
    expect(peerRowKey(ends, 'tcp', false)).toBe('7F000001:C350 7F000001:1F90')
    expect(peerRowKey(ends, 'tcp6', true)).toBe(
      '0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:1F90',
    )
  })
  it('has no key for a connection that is not IPv4', () => {
    expect(peerRowKey({ ...ends, remoteAddress: '::1' }, 'tcp')).toBeUndefined()
  })
})

let dir: string | undefined
const servers: Server[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

/** A table folder with `tcp` (and `tcp6` when given), each a header and the given rows. */
async function tables(tcp: string[], tcp6?: string[]): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'peer-uid-'))
  await writeFile(join(dir, 'tcp'), [HEADER, ...tcp, ''].join('\n'))
  if (tcp6) await writeFile(join(dir, 'tcp6'), [HEADER, ...tcp6, ''].join('\n'))
  return dir
}

describe('reading the socket tables', () => {
  it('finds a row past many others (and across read chunks) and stops with every key found', async () => {
    const wanted = peerRowKey(ends, 'tcp')!
    const filler = Array.from({ length: 3_000 }, (_, i) =>
      row(i, peerRowKey({ ...ends, remotePort: 1_000 + i }, 'tcp')!, 1000),
    )
    const folder = await tables([...filler, row(3_000, wanted, 4242)])
    const found = await readPeerUids('tcp', new Set([wanted]), folder)
    expect(found).toEqual(new Map([[wanted, 4242]]))
  })
  it('reads a missing tcp6 table as empty', async () => {
    const folder = await tables([])
    await expect(readPeerUids('tcp6', new Set(['x y']), folder)).resolves.toEqual(new Map())
  })
  it.skipIf(process.platform !== 'linux')(
    'finds this process as the owner of its own connection in the real /proc/net/tcp',
    async () => {
      const { client } = await loopbackPair()
      const key = peerRowKey(serverSideEnds(client), 'tcp')!
      const found = await readPeerUids('tcp', new Set([key]))
      expect(found.get(key)).toBe(process.getuid!())
    },
  )
})

/** A real loopback connection; `accepted` is the server's side of it. */
async function loopbackPair(): Promise<{ client: Socket; accepted: Socket }> {
  let accepted: (socket: Socket) => void = () => undefined
  const acceptedOne = new Promise<Socket>((resolve) => (accepted = resolve))
  const server = createServer((socket) => {
    sockets.push(socket)
    accepted(socket)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const client = connect((server.address() as { port: number }).port, '127.0.0.1')
  sockets.push(client)
  await new Promise<void>((resolve) => client.once('connect', resolve))
  return { client, accepted: await acceptedOne }
}

/** The ends of a connection as its server sees them, from the client's socket. */
function serverSideEnds(client: Socket): typeof ends {
  return {
    localAddress: client.remoteAddress!,
    localPort: client.remotePort!,
    remoteAddress: client.localAddress!,
    remotePort: client.localPort!,
  }
}

describe.skipIf(process.platform !== 'linux')('the peer-uid gate', () => {
  it('reports a peer of another user, and lets root and our own user through', async () => {
    const stranger = await loopbackPair()
    const root = await loopbackPair()
    const ours = await loopbackPair()
    const folder = await tables([
      row(0, peerRowKey(serverSideEnds(stranger.client), 'tcp')!, 4242),
      row(1, peerRowKey(serverSideEnds(root.client), 'tcp')!, 0),
      row(2, peerRowKey(serverSideEnds(ours.client), 'tcp')!, 1000),
    ])
    const foreign: Socket[] = []
    let reported!: () => void
    const done = new Promise<void>((resolve) => (reported = resolve))
    const gate = createPeerUidGate({
      ownUid: 1000,
      tablesDir: folder,
      warn: () => undefined,
      foreign: (socket) => (foreign.push(socket), reported()),
    })!
    gate.check(root.accepted)
    gate.check(ours.accepted)
    gate.check(stranger.accepted)
    await done
    expect(foreign).toEqual([stranger.accepted])
    expect(gate.foreignSeen).toBe(1)
  })

  it('rests as long as its last read took before the next one', async () => {
    const first = await loopbackPair()
    const second = await loopbackPair()
    const folder = await tables([
      row(0, peerRowKey(serverSideEnds(first.client), 'tcp')!, 4242),
      row(1, peerRowKey(serverSideEnds(second.client), 'tcp')!, 4242),
    ])
    // The clock as the gate reads it: check → 0, read starts at 0 and ends at 1,000, next check at 1,000.
    const clock = [0, 0, 1_000, 1_000]
    const foreign: Socket[] = []
    let reported: () => void = () => undefined
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const gate = createPeerUidGate({
        ownUid: 0,
        tablesDir: folder,
        warn: () => undefined,
        now: () => clock.shift() ?? 1_000,
        foreign: (socket) => (foreign.push(socket), reported()),
      })!
      await new Promise<void>((resolve) => ((reported = resolve), gate.check(first.accepted)))
      const secondReported = new Promise<void>((resolve) => (reported = resolve))
      gate.check(second.accepted)
      expect(vi.getTimerCount()).toBe(1) // the next read waits 1,000 ms instead of starting at once
      expect(foreign).toEqual([first.accepted])
      vi.advanceTimersByTime(1_000)
      await secondReported
      expect(foreign).toEqual([first.accepted, second.accepted])
    } finally {
      vi.useRealTimers()
    }
  })

  it('turns itself off with one warning when the tables cannot be read', async () => {
    const { accepted } = await loopbackPair()
    const warnings: string[] = []
    let warned!: () => void
    const done = new Promise<void>((resolve) => (warned = resolve))
    const gate = createPeerUidGate({
      ownUid: 0,
      tablesDir: '/nonexistent/net',
      foreign: () => undefined,
      warn: (message) => (warnings.push(message), warned()),
    })!
    gate.check(accepted)
    await done
    gate.check(accepted)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^the peer-uid check is off: cannot read the socket tables/)
  })
})
