// The relay's WebSocket for a browser (the phone), holding the server's INFO back until WebCrypto has
// signed its nonce. nats-core builds the CONNECT, and asks the login for the nonce's signature, the moment
// it reads the INFO, and its authenticator must answer at once: tweetnacl's JavaScript signature, 50-120
// ms of a throttled phone's first screen. Held here for the millisecond WebCrypto's native signature
// takes, the INFO reaches nats-core with the signature waiting in the login (creds-authenticator.ts).
import type { Authenticator, ConnectionOptions, WsSocketFactory } from '@nats-io/nats-core'
import type { LoginAhead } from './creds-authenticator'
import { delay } from './delay'

/** Opens the WebSocket to `url` (the browser's own by default; Node tests pass the `ws` package's). */
export type OpenSocket = (url: string) => WebSocket

const openBrowserSocket: OpenSocket = (url) => new WebSocket(url)

/**
 * `wsconnect`'s `wsFactory` for `options`: when their authenticator can sign ahead
 * ({@link LoginAhead}), each socket's first message, the server's INFO, is delivered once its nonce
 * is signed; otherwise the socket as it is.
 */
export function signAheadSocketFactory(
  options: Pick<ConnectionOptions, 'authenticator'>,
  open: OpenSocket = openBrowserSocket,
  holdLimitMs = SIGN_AHEAD_HOLD_LIMIT_MS,
): WsSocketFactory {
  const login = loginAheadOf(options.authenticator)
  return async (url) => {
    const socket = open(url)
    return {
      socket: login ? holdingInfoUntilSigned(socket, login, holdLimitMs) : socket,
      encrypted: url.startsWith('wss:'),
    }
  }
}

/**
 * The longest the INFO is held for WebCrypto's signature (it takes a millisecond or so): should WebCrypto
 * never answer, the INFO goes on after this and tweetnacl signs, well inside nats-core's connect timeout.
 */
export const SIGN_AHEAD_HOLD_LIMIT_MS = 1_000

function loginAheadOf(authenticator: Authenticator | Authenticator[] | undefined): LoginAhead | undefined {
  return typeof authenticator === 'function' && 'signAhead' in authenticator ? (authenticator as LoginAhead) : undefined
}

/** The longest INFO line read before giving up on finding its nonce (nats-server's are under 1 KiB). */
const INFO_LINE_LIMIT = 64 * 1024

/**
 * `socket` with its `onmessage` handler fed through a hold: the messages up to the end of the server's
 * first line (its INFO, which may come in several frames) wait, and if that line is an INFO with a
 * nonce, they and any that follow meanwhile wait for `login.signAhead(nonce)` (which never rejects),
 * at most `holdLimitMs`; all in order. A close meanwhile reaches nats-core first; it drops messages that
 * come after it.
 */
function holdingInfoUntilSigned(socket: WebSocket, login: LoginAhead, holdLimitMs: number): WebSocket {
  let handler: WebSocket['onmessage'] = null
  let state: 'reading' | 'signing' | 'passing' = 'reading'
  let waiting: MessageEvent[] = []
  let head = ''
  const deliver = (event: MessageEvent): void => void handler?.call(socket, event)
  const release = (): void => {
    state = 'passing'
    const released = waiting
    waiting = []
    for (const event of released) deliver(event)
  }
  socket.addEventListener('message', (event: MessageEvent) => {
    if (state === 'passing') return deliver(event)
    waiting.push(event)
    if (state === 'signing') return
    head += textOf(event.data)
    const lineEnd = head.indexOf('\n')
    if (lineEnd < 0 && head.length < INFO_LINE_LIMIT) return
    const nonce = lineEnd < 0 ? undefined : infoNonceOf(head.slice(0, lineEnd + 1))
    head = ''
    if (nonce === undefined) return release()
    state = 'signing'
    const signed = new AbortController()
    void Promise.race([login.signAhead(nonce), delay(holdLimitMs, signed.signal)]).then(() => {
      signed.abort()
      release()
    })
  })
  Object.defineProperty(socket, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (value: WebSocket['onmessage']) => {
      handler = value
    },
  })
  return socket
}

function textOf(data: unknown): string {
  if (typeof data === 'string') return data
  return data instanceof ArrayBuffer || data instanceof Uint8Array ? new TextDecoder().decode(data) : ''
}

/** The nonce of a server's `INFO {…}` line, or undefined when `data` is no INFO or it has none. */
export function infoNonceOf(data: unknown): string | undefined {
  const line = /^INFO[ \t]+(\{[^\r\n]*)\r?\n/.exec(textOf(data))
  if (!line) return undefined
  try {
    const info = JSON.parse(line[1] ?? '') as { nonce?: unknown }
    return typeof info.nonce === 'string' && info.nonce !== '' ? info.nonce : undefined
  } catch {
    return undefined
  }
}
