// The pre-auth budget over real sockets on a real companion: idle TCP connections that never show
// the token are counted apart from the connection cap, a newcomer at a full budget drops the oldest
// (never itself), agents that authenticate leave the budget, and the pre-auth deadline is not the
// agent's hello deadline.
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PRE_AUTH } from '../../../core/preauth-budget'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { helloAgent, openAgent } from './raw-agent'
import { WebSocket } from 'ws'
import { AGENT_PROOF_SUBPROTOCOL, newNonce, proofMac } from '../../../shared/proof'

let t: TestCompanion | undefined
const opened: Socket[] = []
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy()
  await t?.cleanup()
  t = undefined
})

interface Idle {
  socket: Socket
  /** Resolves when the companion has closed the connection. */
  closed: Promise<void>
  isClosed: () => boolean
}

/** An idle TCP connection to the companion (connected, nothing sent). */
async function idleSocket(port: number): Promise<Idle> {
  const socket = connect(port, '127.0.0.1')
  opened.push(socket)
  socket.on('error', () => undefined)
  let isClosed = false
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true
      resolve()
    }),
  )
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  return { socket, closed, isClosed: () => isClosed }
}

/** Sends a plain request on an idle connection and resolves with the status line it gets back. */
function statusLine(idle: Idle): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = ''
    idle.socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
      const end = received.indexOf('\r\n')
      if (end !== -1) resolve(received.slice(0, end))
    })
    idle.socket.once('close', () => reject(new Error('the companion closed the connection without an answer')))
    idle.socket.write('GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  })
}

describe('the pre-auth budget', () => {
  it('defaults to 128 sockets and 3 s to the first request, with the peer-uid gate on', () => {
    expect(DEFAULT_PRE_AUTH).toEqual({ maxSockets: 128, deadlineMs: 3_000, dropOtherUsers: true })
  })

  it('a newcomer at a full budget drops the oldest pre-auth socket; agents that authenticate stop counting', async () => {
    t = await startTestCompanion({ preAuth: { maxSockets: 3, deadlineMs: 60_000 } })
    const { port } = t.companion
    const [s1, s2, s3, s4, s5] = [
      await idleSocket(port),
      await idleSocket(port),
      await idleSocket(port),
      await idleSocket(port),
      await idleSocket(port),
    ]
    await s1!.closed
    await s2!.closed
    expect([s3, s4, s5].map((idle) => idle!.isClosed())).toEqual([false, false, false])

    // The budget is full, yet agents get in: each authenticates (within a turn of the event loop, before
    // the budget is swept) and from then on does not count, so s3, s4 and s5 all stay.
    const agents = [
      await helloAgent(t.companion, 'first'),
      await helloAgent(t.companion, 'second'),
      await helloAgent(t.companion, 'third'),
    ]
    for (const idle of [s3, s4, s5]) expect(await statusLine(idle!)).toBe('HTTP/1.1 404 Not Found')

    // A plain request lifts the deadline but not the count: s6 drops s3, the oldest.
    const s6 = await idleSocket(port)
    await s3!.closed
    expect([s4!.isClosed(), s5!.isClosed(), s6.isClosed()]).toEqual([false, false, false])
    for (const agent of agents) expect(agent.socket.readyState).toBe(agent.socket.OPEN)
  })

  it("a client proving itself (proof subprotocol) still counts, but strangers' idle sockets are dropped first", async () => {
    t = await startTestCompanion({ preAuth: { maxSockets: 2, deadlineMs: 60_000 } })
    const { port } = t.companion
    const nonce = newNonce()
    const prover = new WebSocket(t.companion.agentUrl, [AGENT_PROOF_SUBPROTOCOL, `nonce.${nonce}`])
    const proof = await new Promise<{ nonce: string }>((resolve, reject) => {
      prover.once('message', (data) => resolve(JSON.parse(String(data)) as { nonce: string }))
      prover.once('error', reject)
    })
    // Budget 2: the prover and four idle newcomers. Each sweep drops idle sockets, oldest first, never the prover.
    const idle = [await idleSocket(port), await idleSocket(port), await idleSocket(port), await idleSocket(port)]
    await idle[0]!.closed
    await idle[1]!.closed
    await idle[2]!.closed
    expect(idle[3]!.isClosed()).toBe(false)
    expect(prover.readyState).toBe(prover.OPEN)
    const welcome = new Promise<string>((resolve) => prover.once('message', (data) => resolve(String(data))))
    prover.send(
      JSON.stringify({ type: 'prove', mac: await proofMac(t.companion.token, 'client', 'agent', nonce, proof.nonce) }),
    )
    prover.send(JSON.stringify({ type: 'hello', protocol: 1, client: { name: 'prover' } }))
    expect(JSON.parse(await welcome)).toMatchObject({ type: 'welcome' })
    prover.close()
  })

  it('a burst of agents larger than the budget all get in', async () => {
    t = await startTestCompanion({ preAuth: { maxSockets: 4, deadlineMs: 60_000 } })
    const agents = await Promise.all(Array.from({ length: 40 }, (_, i) => helloAgent(t!.companion, `burst-${i}`)))
    expect(agents.filter((agent) => agent.socket.readyState === agent.socket.OPEN)).toHaveLength(40)
  })

  it('drops a silent connection at the pre-auth deadline, while an upgraded agent keeps its own hello deadline', async () => {
    t = await startTestCompanion({ handshakeTimeoutMs: 60_000, preAuth: { deadlineMs: 200 } })
    const agent = await openAgent(t.companion) // authenticated, no hello yet
    const idle = await idleSocket(t.companion.port)
    await idle.closed
    expect(idle.socket.readableEnded || idle.socket.destroyed).toBe(true)
    expect(agent.socket.readyState).toBe(agent.socket.OPEN)
    agent.send({ type: 'hello', protocol: 1, client: { name: 'late', pid: 1, cwd: '/tmp' } })
    expect(await agent.next()).toMatchObject({ type: 'welcome' })
  })

  it('an upgrade refused at the connection cap (503) leaves the pre-auth budget once it closes', async () => {
    t = await startTestCompanion({
      settings: { limits: { ...DEFAULT_LIMITS, connections: 1 } },
      preAuth: { maxSockets: 2, deadlineMs: 60_000 },
    })
    const first = await helloAgent(t.companion)
    await expect(openAgent(t.companion)).rejects.toThrow(/503/)
    // The refused upgrade left the budget when it closed: two idle sockets fit without dropping each other.
    const a = await idleSocket(t.companion.port)
    const b = await idleSocket(t.companion.port)
    expect(await statusLine(a)).toBe('HTTP/1.1 404 Not Found')
    expect(await statusLine(b)).toBe('HTTP/1.1 404 Not Found')
    expect(first.socket.readyState).toBe(first.socket.OPEN)
  })
})
