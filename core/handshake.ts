import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { AGENT_PATH, AGENT_SUBPROTOCOL } from '../shared/wire'
import { TOKEN_SUBPROTOCOL_PREFIX, UI_PATH, UI_SUBPROTOCOL } from '../shared/ui'
import { AGENT_PROOF_SUBPROTOCOL, offeredNonce, UI_PROOF_SUBPROTOCOL } from '../shared/proof'
import { UI_V1_PROOF_SUBPROTOCOL, UI_V1_SUBPROTOCOL } from './ui-v1'

/** Which endpoint an upgrade request is for. */
export type Route = 'agent' | 'ui'

/**
 * The outcome of the upgrade checks: accept on `route`, or refuse with an HTTP status. `proof` is set
 * when the client chose a proof subprotocol: it is not authenticated yet, and must prove itself over
 * the socket (core/proof-stage.ts) before anything of the session reaches it.
 */
export type UpgradeDecision =
  { ok: true; route: Route; proof?: { clientNonce: string } } | { ok: false; status: number; message: string }

/** What the checks need to know about this companion. */
export interface HandshakeContext {
  /** The port the companion listens on (for its own origin). */
  port: number
  /** Constant-time check of the agent token (see token.ts): opens `/v1/agent` (and `/v1/status`) only. */
  tokenMatches: (presented: string | undefined) => boolean
  /** Constant-time check of the window credential (window-access.ts): opens `/v1/ui` only. */
  windowMatches: (presented: string | undefined) => boolean
}

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i

/** True when a `Host` header names 127.0.0.1, localhost or [::1], any port (defeats DNS rebinding). */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host.trim())
}

/** True when `origin` is exactly the companion's own page origin (127.0.0.1, localhost or [::1] form). */
export function isOwnOrigin(origin: string, port: number): boolean {
  return (
    origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}` || origin === `http://[::1]:${port}`
  )
}

/** The subprotocols offered in `Sec-WebSocket-Protocol`, trimmed, in order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol']
  if (header === undefined) return []
  return header
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')
  return match?.[1]
}

/** The path of a request URL without its query string. */
export function requestPath(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * Checks an HTTP upgrade request, cheapest check first, and says which endpoint it is for or which
 * status refuses it:
 * - unknown path → 404;
 * - agent endpoint: any `Origin` (a `null` one included) → 403; bad `Host` → 403; then either the proof
 *   subprotocol `ask-user.v1.proof` with one valid `nonce.<nonce>` (accepted, to be proven on the
 *   socket), or `ask-user.v1` with the right bearer token (else 401); neither subprotocol → 426;
 * - UI channel: `Origin` present and not the companion's own → 403; bad `Host` → 403; then either
 *   `ask-user.ui.v2.proof` with a nonce, or `ask-user.ui.v2` with the window credential in
 *   `Authorization: Bearer` or an offered `token.<credential>` subprotocol (else 401: the agent token
 *   never opens a window); v1's pair (`ask-user.ui.v1.proof`, `ask-user.ui.v1`, deprecated) the same
 *   way; none of them → 426.
 */
export function checkUpgrade(req: IncomingMessage, ctx: HandshakeContext): UpgradeDecision {
  const path = requestPath(req)
  const origin = req.headers.origin
  if (path === AGENT_PATH) {
    if (origin !== undefined)
      return refuse(403, 'the agent endpoint refuses requests from web pages (Origin header present)')
    if (!isLoopbackHost(req.headers.host)) return refuse(403, 'Host must be 127.0.0.1, localhost or [::1]')
    const protocols = offeredProtocols(req)
    if (protocols.includes(AGENT_PROOF_SUBPROTOCOL)) return withProof('agent', protocols)
    if (!protocols.includes(AGENT_SUBPROTOCOL))
      return refuse(426, `subprotocol ${AGENT_PROOF_SUBPROTOCOL} or ${AGENT_SUBPROTOCOL} required`)
    if (!ctx.tokenMatches(bearerToken(req))) return refuse(401, 'missing or wrong bearer token')
    return { ok: true, route: 'agent' }
  }
  if (path === UI_PATH) {
    if (origin !== undefined && !isOwnOrigin(origin, ctx.port)) return refuse(403, 'foreign Origin')
    if (!isLoopbackHost(req.headers.host)) return refuse(403, 'Host must be 127.0.0.1, localhost or [::1]')
    const protocols = offeredProtocols(req)
    if (protocols.includes(UI_PROOF_SUBPROTOCOL) || protocols.includes(UI_V1_PROOF_SUBPROTOCOL))
      return withProof('ui', protocols)
    if (!protocols.includes(UI_SUBPROTOCOL) && !protocols.includes(UI_V1_SUBPROTOCOL)) {
      return refuse(426, `subprotocol ${UI_PROOF_SUBPROTOCOL} or ${UI_SUBPROTOCOL} required`)
    }
    const fromProtocol = protocols.find((item) => item.startsWith(TOKEN_SUBPROTOCOL_PREFIX))
    const presented = bearerToken(req) ?? fromProtocol?.slice(TOKEN_SUBPROTOCOL_PREFIX.length)
    if (!ctx.windowMatches(presented)) {
      return refuse(
        401,
        'missing or wrong window credential (the agent token does not open windows; run `ask-user open` or `ask-user window-token`)',
      )
    }
    return { ok: true, route: 'ui' }
  }
  return refuse(404, 'not found')
}

/** A proof subprotocol was offered: it needs exactly one valid nonce (else 400). */
function withProof(route: Route, protocols: string[]): UpgradeDecision {
  const clientNonce = offeredNonce(protocols)
  if (clientNonce === undefined)
    return refuse(400, 'the proof subprotocol needs exactly one nonce.<43 base64url characters>')
  return { ok: true, route, proof: { clientNonce } }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  426: 'Upgrade Required',
  503: 'Service Unavailable',
}

/** Answers a refused upgrade with a plain-text HTTP status and closes the socket. */
export function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = `${message}\n`
  const extra = status === 426 ? 'Upgrade: websocket\r\n' : ''
  try {
    socket.once('finish', () => socket.destroy())
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${extra}Connection: close\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
  } catch {
    socket.destroy() // the peer is already gone
  }
}

function refuse(status: number, message: string): UpgradeDecision {
  return { ok: false, status, message }
}
