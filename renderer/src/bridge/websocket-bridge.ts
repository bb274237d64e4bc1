import type { Answer } from '../../../shared/answer'
import type { ApprovalDecision } from '../../../shared/approval'
import type { BridgeStatus, CompanionBridge } from '../../../shared/bridge'
import { historyRequest, UiServerFrameSchema, type UiClientFrame, type UiServerFrame } from '../../../shared/ui'

/** Options of the WebSocket UI channel bridge. */
export interface WebSocketBridgeOptions {
  /** `ws://host:port/v1/ui`. */
  url: string
  /** Subprotocols: `ask-user.ui.v1` and, from the served page, `token.<token>`. */
  protocols: string[]
  /** First reconnect delay in ms (default 250); doubles up to `maxDelayMs`. */
  initialDelayMs?: number
  /** Longest reconnect delay in ms (default 5000). */
  maxDelayMs?: number
  /** The WebSocket constructor (injectable for tests; default the global one). */
  WebSocketImpl?: typeof WebSocket
}

/**
 * A `CompanionBridge` over the companion's WebSocket UI channel. Connects on the first `onFrame`
 * subscription (the server's `snapshot` on connect is then never missed), reconnects with exponential
 * backoff after any close, and parses every incoming frame with `UiServerFrameSchema` (invalid frames
 * are dropped). Calls made while the socket is not open are dropped; the status says so.
 */
export function createWebSocketBridge(options: WebSocketBridgeOptions): CompanionBridge {
  const initialDelay = options.initialDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 5000
  const Impl = options.WebSocketImpl ?? WebSocket
  const frameListeners = new Set<(frame: UiServerFrame) => void>()
  const statusListeners = new Set<(status: BridgeStatus) => void>()
  let status: BridgeStatus = 'connecting'
  let socket: WebSocket | undefined
  let started = false
  let delay = initialDelay

  const setStatus = (next: BridgeStatus): void => {
    if (next === status) return
    status = next
    for (const listener of [...statusListeners]) listener(next)
  }

  const receive = (data: unknown): void => {
    if (typeof data !== 'string') return
    let json: unknown
    try {
      json = JSON.parse(data)
    } catch {
      return
    }
    const parsed = UiServerFrameSchema.safeParse(json)
    if (!parsed.success) return
    for (const listener of [...frameListeners]) listener(parsed.data)
  }

  const connect = (): void => {
    setStatus('connecting')
    let ws: WebSocket
    try {
      ws = new Impl(options.url, options.protocols)
    } catch {
      scheduleReconnect()
      return
    }
    socket = ws
    ws.onopen = () => {
      delay = initialDelay
      setStatus('open')
    }
    ws.onmessage = (event: MessageEvent) => receive(event.data)
    ws.onclose = () => {
      if (socket !== ws) return
      socket = undefined
      scheduleReconnect()
    }
  }

  const scheduleReconnect = (): void => {
    setStatus('closed')
    const wait = delay
    delay = Math.min(maxDelay, delay * 2)
    setTimeout(connect, wait)
  }

  const send = (frame: UiClientFrame): void => {
    if (socket?.readyState === Impl.OPEN) socket.send(JSON.stringify(frame))
  }

  return {
    answer: (askId: string, answers: Answer[]) => send({ type: 'answer', askId, answers }),
    decide: (askId: string, decision: ApprovalDecision) => send({ type: 'decide', askId, decision }),
    dismiss: (askId: string) => send({ type: 'dismiss', askId }),
    dismissNotice: (noticeId: string) => send({ type: 'notice/dismiss', noticeId }),
    requestHistory: (limit?: number, before?: string) => send(historyRequest(limit, before)),
    onFrame(listener) {
      frameListeners.add(listener)
      if (!started) {
        started = true
        connect()
      }
      return () => frameListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      listener(status)
      return () => statusListeners.delete(listener)
    },
  }
}
