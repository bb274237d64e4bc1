import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_PATH } from '../shared/endpoint'
import { COMPANION_SERVICE, type CompanionStatus, type StatusRefusal } from '../shared/endpoint'
import { AGENT_PATH, PROTOCOL_VERSION } from '../shared/wire'
import { UI_PATH } from '../shared/ui'
import { bearerToken, isLoopbackHost, isOwnOrigin, requestPath } from './handshake'
import { send, serveStatic } from './static-files'
import { handleWindowRoute, WINDOW_PATHS, type WindowRoutesContext } from './window-routes'

/** What the plain-HTTP routes need from the companion. */
export interface HttpContext {
  port: () => number
  tokenMatches: (presented: string | undefined) => boolean
  status: () => CompanionStatus
  staticDir: string | undefined
  /** The window-link routes (`/v1/window/*`); absent: they answer 404. */
  windows?: WindowRoutesContext
}

const TEXT = 'text/plain; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'

/** The 401 of `GET /v1/status`: it says who refused, which a page's probe reads (shared/endpoint.ts). */
const STATUS_REFUSAL: StatusRefusal = {
  code: 'UNAUTHORIZED',
  message: 'missing or wrong bearer token',
  service: COMPANION_SERVICE,
}

/**
 * Plain HTTP requests: `Host` must be loopback (403), a foreign `Origin` is refused (403);
 * `GET /v1/status` needs `Authorization: Bearer <token>` (else 401 with a JSON `StatusRefusal` naming the
 * service, so a page can tell the companion from another program on its port); the WebSocket paths answer 426 to a
 * request that is not an upgrade; anything else is the built renderer when `staticDir` is set, else 404.
 */
export function handleRequest(ctx: HttpContext, req: IncomingMessage, res: ServerResponse): void {
  const path = requestPath(req)
  const origin = req.headers.origin
  if (!isLoopbackHost(req.headers.host))
    return send(res, req, 403, TEXT, 'Host must be 127.0.0.1, localhost or [::1]\n')
  if (origin !== undefined && !isOwnOrigin(origin, ctx.port())) return send(res, req, 403, TEXT, 'foreign Origin\n')
  if (path === STATUS_PATH) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, req, 405, TEXT, 'method not allowed\n')
    if (!ctx.tokenMatches(bearerToken(req))) return send(res, req, 401, JSON_TYPE, JSON.stringify(STATUS_REFUSAL))
    return send(res, req, 200, JSON_TYPE, JSON.stringify(ctx.status()))
  }
  if (ctx.windows !== undefined && WINDOW_PATHS.has(path)) return handleWindowRoute(ctx.windows, path, req, res)
  if (path === AGENT_PATH || path === UI_PATH) return send(res, req, 426, TEXT, 'WebSocket upgrade required\n')
  if (ctx.staticDir === undefined) return send(res, req, 404, TEXT, 'not found\n')
  serveStatic(ctx.staticDir, path, req, res).catch(() => {
    if (!res.headersSent) send(res, req, 500, TEXT, 'internal error\n')
    else res.destroy()
  })
}

/** The status body for the given counts. */
export function statusBody(
  server: CompanionStatus['server'],
  pending: number,
  agents: number,
  windows: number,
): CompanionStatus {
  return { protocol: PROTOCOL_VERSION, server, pending, agents, windows }
}
