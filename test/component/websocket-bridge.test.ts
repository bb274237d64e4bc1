import { afterEach, describe, expect, it, vi } from 'vitest'
import { getBridge } from '../../renderer/src/bridge'
import { codeFromHash } from '../../renderer/src/bridge/page-access'
import { newNonce, proofMac } from '../../shared/proof'
import { createWebSocketBridge } from '../../renderer/src/bridge/websocket-bridge'
import type { PortAnswer } from '../../renderer/src/bridge/status-probe'
import type { BridgeStatus } from '../../shared/bridge'
import type { UiServerFrame } from '../../shared/ui'

/** A stand-in for the browser WebSocket: records sockets, lets the test open, message and close them. */
class FakeSocket {
  static readonly OPEN = 1
  static sockets: FakeSocket[] = []
  readyState = 0
  sent: string[] = []
  onopen: (() => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.sockets.push(this)
  }
  send(data: string): void {
    this.sent.push(data)
  }
  open(): void {
    this.readyState = 1
    this.onopen?.()
  }
  message(data: unknown): void {
    this.onmessage?.({ data })
  }
  close(): void {
    this.drop(1000)
  }
  drop(code = 1006): void {
    this.readyState = 3
    this.onclose?.({ code })
  }
}

afterEach(() => {
  vi.useRealTimers()
  FakeSocket.sockets = []
})

function connect() {
  const bridge = createWebSocketBridge({
    url: 'ws://127.0.0.1:1234/v1/ui',
    protocols: ['ask-user.ui.v2', 'token.abc'],
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
  })
  const frames: UiServerFrame[] = []
  const statuses: BridgeStatus[] = []
  bridge.onStatus((status) => statuses.push(status))
  return { bridge, frames, statuses, subscribe: () => bridge.onFrame((frame) => frames.push(frame)) }
}

describe('WebSocket bridge', () => {
  it('a failed socket asks the probe: a port that does not answer is unreachable until one does', async () => {
    vi.useFakeTimers()
    let answer: PortAnswer = 'nothing'
    let probes = 0
    const bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1234/v1/ui',
      protocols: ['ask-user.ui.v2'],
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      probe: () => {
        probes += 1
        return Promise.resolve(answer)
      },
    })
    const statuses: BridgeStatus[] = []
    bridge.onStatus((status) => statuses.push(status))
    bridge.onFrame(() => undefined)
    FakeSocket.sockets[0]!.open()
    FakeSocket.sockets[0]!.drop()
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('unreachable'))
    expect(probes).toBe(1)
    // Retrying keeps saying unreachable (no flicker through connecting) while the port stays silent.
    await vi.advanceTimersByTimeAsync(250)
    FakeSocket.sockets[1]!.drop()
    await vi.advanceTimersByTimeAsync(0)
    expect(statuses).toEqual(['connecting', 'open', 'closed', 'unreachable'])
    // The port answers again (the socket may still fail, say while the companion starts): only closed.
    answer = 'companion'
    await vi.advanceTimersByTimeAsync(500)
    FakeSocket.sockets[2]!.drop()
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('closed'))
    await vi.advanceTimersByTimeAsync(1000)
    FakeSocket.sockets[3]!.open()
    expect(statuses.at(-1)).toBe('open')
  })

  it('a port that answers, but not as the companion, is another program’s; a proof that failed there stays "restarted" only while the companion answers', async () => {
    vi.useFakeTimers()
    let answer: PortAnswer = 'other-program'
    const bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1234/v1/ui',
      credential: () => 'C'.repeat(43),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      probe: () => Promise.resolve(answer),
    })
    const statuses: BridgeStatus[] = []
    bridge.onStatus((status) => statuses.push(status))
    bridge.onFrame(() => undefined)
    FakeSocket.sockets[0]!.drop()
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('other-program'))
    // Retrying keeps the words while the port stays taken.
    await vi.advanceTimersByTimeAsync(250)
    FakeSocket.sockets[1]!.drop()
    await vi.advanceTimersByTimeAsync(0)
    expect(statuses).toEqual(['connecting', 'closed', 'other-program'])
    // The companion is back with a new credential: its proof fails, and the probe keeps "restarted".
    answer = 'companion'
    await vi.advanceTimersByTimeAsync(500)
    const restarted = FakeSocket.sockets[2]!
    restarted.open()
    restarted.message(JSON.stringify({ type: 'proof', nonce: newNonce(), mac: newNonce() }))
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('unverified'))
    await vi.advanceTimersByTimeAsync(0)
    expect(statuses.at(-1)).toBe('unverified')
    // Something else answers the socket with a proof that fails, and its HTTP is not the companion's.
    answer = 'other-program'
    await vi.advanceTimersByTimeAsync(1000)
    const impostor = FakeSocket.sockets[3]!
    impostor.open()
    impostor.message(JSON.stringify({ type: 'proof', nonce: newNonce(), mac: newNonce() }))
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('other-program'))
  })

  it('reads a one-time code from the fragment (never a token)', () => {
    expect(codeFromHash('#code=abc123')).toBe('abc123')
    expect(codeFromHash('#token=abc123')).toBeUndefined()
    expect(codeFromHash('')).toBeUndefined()
  })

  it('with a credential: proof subprotocol and nonce, nothing shown or sent before a valid proof, then prove', async () => {
    let credential: string | undefined = undefined
    const bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1234/v1/ui',
      credential: () => credential,
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    })
    const statuses: BridgeStatus[] = []
    const frames: UiServerFrame[] = []
    bridge.onStatus((status) => statuses.push(status))
    bridge.onFrame((frame) => frames.push(frame))
    expect(statuses.at(-1)).toBe('signed-out')
    expect(FakeSocket.sockets).toHaveLength(0)
    credential = 'C'.repeat(43)
    bridge.retry()
    const socket = FakeSocket.sockets[0]!
    expect(socket.protocols[0]).toBe('ask-user.ui.v2.proof')
    const clientNonce = socket.protocols[1]!.slice('nonce.'.length)
    expect(clientNonce).toMatch(/^[\w-]{43}$/)
    socket.open()
    bridge.dismiss('a1') // not proven yet: dropped
    const nonce = newNonce()
    socket.message(
      JSON.stringify({ type: 'proof', nonce, mac: await proofMac(credential, 'companion', 'ui', clientNonce, nonce) }),
    )
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('open'))
    expect(frames).toEqual([])
    expect(socket.sent).toEqual([
      JSON.stringify({ type: 'prove', mac: await proofMac(credential, 'client', 'ui', clientNonce, nonce) }),
    ])
    socket.message('{"type":"snapshot","pending":[]}')
    expect(frames).toEqual([{ type: 'snapshot', pending: [] }])
    socket.drop(4401)
    expect(statuses.at(-1)).toBe('alarm')
  })

  it('a forged proof leaves the page unverified, showing and sending nothing', async () => {
    const bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1234/v1/ui',
      credential: () => 'C'.repeat(43),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    })
    const statuses: BridgeStatus[] = []
    const frames: UiServerFrame[] = []
    bridge.onStatus((status) => statuses.push(status))
    bridge.onFrame((frame) => frames.push(frame))
    const socket = FakeSocket.sockets[0]!
    socket.open()
    socket.message(JSON.stringify({ type: 'proof', nonce: newNonce(), mac: newNonce() }))
    socket.message('{"type":"snapshot","pending":[]}')
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('unverified'))
    expect(frames).toEqual([])
    expect(socket.sent).toEqual([])
  })

  it('prefers the Electron preload bridge when present', () => {
    const preload = {
      answer() {},
      decide() {},
      dismiss() {},
      dismissNotice() {},
      requestHistory() {},
      onFrame: () => () => {},
      onStatus: () => () => {},
    }
    window.companion = preload
    expect(getBridge()).toBe(preload)
    delete window.companion
  })

  it('connects on the first subscription, parses frames and drops invalid ones', () => {
    const { bridge, frames, statuses, subscribe } = connect()
    expect(FakeSocket.sockets).toHaveLength(0)
    subscribe()
    const socket = FakeSocket.sockets[0]!
    expect(socket.url).toBe('ws://127.0.0.1:1234/v1/ui')
    expect(socket.protocols).toEqual(['ask-user.ui.v2', 'token.abc'])
    bridge.answer('a1', [{ id: 'q', selected: [] }]) // not open yet: dropped
    socket.open()
    expect(statuses).toEqual(['connecting', 'open'])
    socket.message('{"type":"snapshot","pending":[]}')
    socket.message('not json')
    socket.message('{"type":"snapshot"}')
    socket.message('{"type":"ask/settled","askId":"a1","outcome":"exploded"}')
    socket.message('{"type":"ask/accepted","askId":"a1"}')
    socket.message('{"type":"ask/accepted","askId":"a1","outcome":"aborted"}')
    socket.message('{"type":"ask/accepted","askId":"a1","outcome":"cancelled"}')
    socket.message(new ArrayBuffer(4))
    expect(frames).toEqual([
      { type: 'snapshot', pending: [] },
      { type: 'ask/accepted', askId: 'a1', outcome: 'cancelled' },
    ])
    bridge.answer('a1', [{ id: 'q', selected: ['x'] }])
    bridge.dismiss('a2')
    bridge.requestHistory(50)
    bridge.requestHistory()
    expect(socket.sent.map((text) => JSON.parse(text))).toEqual([
      { type: 'ask/answer', askId: 'a1', answers: [{ id: 'q', selected: ['x'] }] },
      { type: 'ask/dismiss', askId: 'a2' },
      { type: 'history/get', limit: 50 },
      { type: 'history/get' },
    ])
  })

  it('reconnects with exponential backoff and resets it after a successful open', async () => {
    vi.useFakeTimers()
    const { statuses, subscribe } = connect()
    subscribe()
    FakeSocket.sockets[0]!.drop()
    expect(statuses.at(-1)).toBe('closed')
    await vi.advanceTimersByTimeAsync(249)
    expect(FakeSocket.sockets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(FakeSocket.sockets).toHaveLength(2)
    FakeSocket.sockets[1]!.drop()
    await vi.advanceTimersByTimeAsync(499)
    expect(FakeSocket.sockets).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(FakeSocket.sockets).toHaveLength(3)
    FakeSocket.sockets[2]!.open()
    FakeSocket.sockets[2]!.drop()
    await vi.advanceTimersByTimeAsync(250)
    expect(FakeSocket.sockets).toHaveLength(4)
    expect(statuses).toEqual([
      'connecting',
      'closed',
      'connecting',
      'closed',
      'connecting',
      'open',
      'closed',
      'connecting',
    ])
  })
})
