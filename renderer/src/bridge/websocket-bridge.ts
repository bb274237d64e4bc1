import { frameCalls, type BridgeStatus, type CompanionBridge } from '../../../shared/bridge'
import { Listeners } from '../../../shared/listeners'
import { UiServerFrameSchema, type UiClientFrame, type UiServerFrame } from '../../../shared/ui'
import type { PortAnswer } from './status-probe'
import {
  answerProof,
  newNonce,
  NONCE_SUBPROTOCOL_PREFIX,
  PROOF_FAILED_CLOSE,
  UI_PROOF_SUBPROTOCOL,
} from '../../../shared/proof'

/** Close code of a window whose credential was rotated (core/sockets.ts). */
const CREDENTIAL_ROTATED_CLOSE = 4401

/** Options of the WebSocket UI channel bridge. */
export interface WebSocketBridgeOptions {
  /** `ws://host:port/v1/ui`. */
  url: string
  /**
   * The window credential now (the served page's, redeemed from its link): the bridge then speaks the
   * proof subprotocol and shows nothing until the companion proved it holds the same credential.
   * `undefined` from it: the page is signed out and does not connect.
   */
  credential?: () => string | undefined
  /** Without `credential`: the subprotocols as they are (`ask-user.ui.v2`, a script's `token.<…>`). */
  protocols?: string[]
  /** Told when the companion signed this window out (4401: credential rotated, or 4403: proof refused). */
  onSignedOut?: () => void
  /**
   * Asked after the socket failed: who answers on the companion's port (bridge/status-probe.ts)?
   * `nothing` makes the status `unreachable`, `other-program` makes it `other-program`, until a probe
   * or a socket says otherwise; `companion` leaves `closed` (or `unverified`: the companion restarted).
   * Without it a failed socket is only `closed`.
   */
  probe?: () => Promise<PortAnswer>
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
 * backoff after any close (asking `probe` whether the port answers at all), and parses every incoming
 * frame with `UiServerFrameSchema` (invalid frames are dropped). Calls made while the socket is not
 * open are dropped; the status says so.
 */
export function createWebSocketBridge(options: WebSocketBridgeOptions): CompanionBridge & { retry(): void } {
  const initialDelay = options.initialDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 5000
  const Impl = options.WebSocketImpl ?? WebSocket
  const frameListeners = new Listeners<[frame: UiServerFrame]>(reportListenerError)
  const statusListeners = new Listeners<[status: BridgeStatus]>(reportListenerError)
  let status: BridgeStatus = 'connecting'
  let socket: WebSocket | undefined
  let started = false
  let delay = initialDelay

  const setStatus = (next: BridgeStatus): void => {
    if (next === status) return
    status = next
    statusListeners.emit(next)
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
    frameListeners.emit(parsed.data)
  }

  const connect = (): void => {
    const secret = options.credential?.()
    if (options.credential !== undefined && secret === undefined) return setStatus('signed-out')
    // An unverified, unreachable or taken port stays so while retrying: only news changes the words.
    if (!retryingQuietly(status)) setStatus('connecting')
    const nonce = secret === undefined ? undefined : newNonce()
    let ws: WebSocket
    try {
      ws = new Impl(
        options.url,
        nonce === undefined ? (options.protocols ?? []) : [UI_PROOF_SUBPROTOCOL, NONCE_SUBPROTOCOL_PREFIX + nonce],
      )
    } catch {
      scheduleReconnect()
      return
    }
    socket = ws
    // Until the companion proved itself, nothing it sends is shown and nothing is sent to it.
    let proven = nonce === undefined
    let checking = false
    const opened = (): void => {
      delay = initialDelay
      setStatus('open')
    }
    ws.onopen = () => {
      if (proven) opened()
    }
    ws.onmessage = (event: MessageEvent) => {
      if (proven) return receive(event.data)
      if (checking || secret === undefined || nonce === undefined) return
      checking = true
      void answerProof(secret, 'ui', nonce, event.data).then((prove) => {
        if (socket !== ws) return
        if (prove === undefined) {
          setStatus('unverified')
          return ws.close()
        }
        ws.send(prove)
        proven = true
        opened()
      })
    }
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return
      socket = undefined
      if (event.code === CREDENTIAL_ROTATED_CLOSE || event.code === PROOF_FAILED_CLOSE) {
        setStatus(event.code === CREDENTIAL_ROTATED_CLOSE ? 'alarm' : 'signed-out')
        return options.onSignedOut?.()
      }
      scheduleReconnect()
    }
  }

  const scheduleReconnect = (): void => {
    if (!retryingQuietly(status)) setStatus('closed')
    if (options.probe !== undefined) {
      void options.probe().then((answer) => {
        // A socket under way, or news it brought (open, signed out), knows better than the probe.
        if (socket !== undefined || (status !== 'closed' && !retryingQuietly(status))) return
        setStatus(statusAfterProbe(status, answer))
      })
    }
    const wait = delay
    delay = Math.min(maxDelay, delay * 2)
    setTimeout(connect, wait)
  }

  const send = (frame: UiClientFrame): void => {
    if (status === 'open' && socket?.readyState === Impl.OPEN) socket.send(JSON.stringify(frame))
  }

  return {
    /** Connects now if the bridge is signed out or waiting to reconnect (a new credential arrived). */
    retry: () => {
      if (started && socket === undefined) {
        delay = initialDelay
        connect()
      }
    },
    ...frameCalls(send),
    onFrame(listener) {
      const off = frameListeners.add(listener)
      if (!started) {
        started = true
        connect()
      }
      return off
    },
    onStatus(listener) {
      const off = statusListeners.add(listener)
      listener(status)
      return off
    },
  }
}

/** The states a failed socket keeps while it retries, so the words do not flicker through "connecting". */
function retryingQuietly(status: BridgeStatus): boolean {
  return status === 'unreachable' || status === 'unverified' || status === 'other-program'
}

/**
 * The status once the probe said who answers the port. A page that saw a proof fail (`unverified`)
 * stays so while the companion answers: it restarted with a new credential.
 */
function statusAfterProbe(status: BridgeStatus, answer: PortAnswer): BridgeStatus {
  if (answer === 'nothing') return 'unreachable'
  if (answer === 'other-program') return 'other-program'
  return status === 'unverified' ? 'unverified' : 'closed'
}

/** A window's listener threw: the bridge goes on for the others; the console keeps the error. */
function reportListenerError(error: unknown): void {
  console.error('ask-user: a frame or status listener failed', error)
}
