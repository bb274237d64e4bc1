import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { handleRequest, type HttpContext } from './http-routes'
import type { PreAuthBudget } from './preauth-budget'

/** What {@link createHttpServer} needs. */
export interface HttpServerOptions {
  /** The plain-HTTP routes' context (status, static page, token check). */
  routes: HttpContext
  /**
   * The sockets that have not authenticated yet (preauth-budget.ts): every connection is admitted there, its
   * fixed deadline runs until its first request, and the upgrade handler marks the ones that authenticate.
   */
  preAuth: PreAuthBudget
  /** Milliseconds a connection may take to send its request or upgrade, and may idle before it (slow or silent peers are dropped). */
  preAuthDeadlineMs: number
  /** Sees each accepted connection (the Linux peer-uid gate); never delays it. */
  onAccepted?: (socket: Socket) => void
  /** The backstop on TCP connections, over which Node refuses a newcomer: the connection cap plus the pre-auth budget and slack. */
  maxConnections: number
  /** Hands a WebSocket upgrade request to the endpoints. */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
}

/**
 * The companion's HTTP server on loopback: routes plain requests, hands upgrades on, and bounds what a
 * peer may cost before it authenticates: the pre-auth budget (a count of its own, oldest dropped for a
 * newcomer, a fixed deadline from the connection to its first request), Node's header, request and
 * idle timeouts, a connection backstop, bad requests dropped without an answer.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { preAuth, preAuthDeadlineMs } = options
  // Node checks header/request timeouts on this interval (30 s by default): keep it near the deadline.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, preAuthDeadlineMs) }, (req, res) =>
    handleRequest(options.routes, req, res),
  )
  // Idle timeout before the upgrade; ws clears it (setTimeout(0)) once a socket is upgraded. A peer
  // trickling bytes never idles, so the budget also gives each connection a fixed deadline, counted
  // from its connection: its first request (plain or upgrade) must have arrived by then.
  // Module-level handlers, no closure per connection: an idle agent connection costs the companion
  // as little as it can (docs/performance.md, "Memory per connection").
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(preAuthDeadlineMs)
    socket.on('timeout', destroyThis)
    preAuth.admit(socket)
    options.onAccepted?.(socket)
  })
  server.on('request', (req: IncomingMessage) => preAuth.requestArrived(req.socket))
  server.headersTimeout = preAuthDeadlineMs // slow-header senders (checked on Node's own coarse interval)
  server.requestTimeout = preAuthDeadlineMs
  server.maxConnections = options.maxConnections
  // An upgrade keeps its deadline: only passing the checks (the endpoints call preAuth.authenticated)
  // or closing takes a socket out of the budget, so a refused upgrade that lingers is still dropped.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => options.onUpgrade(req, socket, head))
  server.on('clientError', (_error, socket) => socket.destroy())
  return server
}

/** A listener that destroys the stream it is called on (`this`): one function for every connection. */
export function destroyThis(this: Duplex): void {
  this.destroy()
}

/**
 * Connections the kernel may hold completed but not yet accepted (Linux caps it at
 * `net.core.somaxconn`, 4096 by default). Node's 511 let a stranger re-opening a few thousand idle
 * sockets keep the queue full, so an agent's SYN was dropped and retried a second or more later; with
 * room for the stranger's sockets in the queue, the agent's gets in at once and the pre-auth budget
 * does the rest (test/unit/adversarial/preauth-crowding.test.ts).
 */
export const LISTEN_BACKLOG = 4096

/** Listens on 127.0.0.1:`port` (0 = any free port); resolves the port, or rejects in words when it is taken. */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on 127.0.0.1 is already in use`, { cause: error })
          : error,
      )
    }
    server.once('error', onError)
    server.listen(port, '127.0.0.1', LISTEN_BACKLOG, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
