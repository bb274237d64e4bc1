import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { handleRequest, type HttpContext } from './http-routes'

/** What {@link createHttpServer} needs. */
export interface HttpServerOptions {
  /** The plain-HTTP routes' context (status, static page, token check). */
  routes: HttpContext
  /** Milliseconds a connection may take to send its request or upgrade (slow or silent peers are dropped). */
  handshakeTimeoutMs: number
  /** Connections that have not upgraded count too: the WebSocket cap plus room for page requests. */
  maxConnections: number
  /** Hands a WebSocket upgrade request to the endpoints. */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
}

/**
 * The companion's HTTP server on loopback: routes plain requests, hands upgrades on, and bounds what a
 * peer may cost before its upgrade (a fixed deadline from the connection to its first request, header,
 * request and idle timeouts, a connection cap, bad requests dropped without an answer).
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { handshakeTimeoutMs } = options
  // Node checks header/request timeouts on this interval (30 s by default): keep it near the deadline.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, handshakeTimeoutMs) }, (req, res) => handleRequest(options.routes, req, res))
  // Header/idle timeout before the upgrade; ws clears it (setTimeout(0)) once a socket is upgraded.
  // A peer trickling bytes never idles, so each connection also gets a fixed deadline of its own,
  // counted from its connection: its first request (plain or upgrade) must have arrived by then.
  // Module-level handlers, no closure per connection: an idle agent connection costs the companion
  // as little as it can (docs/performance.md, "Memory per connection").
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(handshakeTimeoutMs)
    socket.on('timeout', destroyThis)
    const deadline = setTimeout(() => socket.destroy(), handshakeTimeoutMs) // freed once cleared: only the map holds it
    deadline.unref()
    handshakeDeadlines.set(socket, deadline)
    socket.on('close', clearDeadlineOfThis)
  })
  server.on('request', (req: IncomingMessage) => clearHandshakeDeadline(req.socket))
  server.headersTimeout = handshakeTimeoutMs // slow-header senders (checked on Node's own coarse interval)
  server.requestTimeout = handshakeTimeoutMs
  server.maxConnections = options.maxConnections
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    clearHandshakeDeadline(req.socket)
    options.onUpgrade(req, socket, head)
  })
  server.on('clientError', (_error, socket) => socket.destroy())
  return server
}

const handshakeDeadlines = new WeakMap<Socket, NodeJS.Timeout>()

function clearHandshakeDeadline(socket: Socket): void {
  clearTimeout(handshakeDeadlines.get(socket))
  handshakeDeadlines.delete(socket)
}

function clearDeadlineOfThis(this: Socket): void {
  clearHandshakeDeadline(this)
}

/** A listener that destroys the stream it is called on (`this`): one function for every connection. */
export function destroyThis(this: Duplex): void {
  this.destroy()
}

/** Listens on 127.0.0.1:`port` (0 = any free port); resolves the port, or rejects in words when it is taken. */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on 127.0.0.1 is already in use`, { cause: error }) : error)
    }
    server.once('error', onError)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
