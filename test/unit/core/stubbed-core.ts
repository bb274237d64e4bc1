// The companion's sockets over real loopback sockets on port 0, wired as companion.ts wires them, but
// with the registry and the history reader passed in: the seam the fault-injection tests use to make
// one handler throw while everything else stays real.
import type { Server } from 'node:http'
import { DEFAULT_LIMITS, type Limits } from '../../../shared/limits'
import { AGENT_PATH } from '../../../shared/wire'
import { UI_PATH } from '../../../shared/ui'
import { Heartbeat } from '../../../core/heartbeat'
import type { HistoryPage, HistoryPageRequest } from '../../../core/history'
import { createHttpServer, listenOnLoopback } from '../../../core/http-server'
import { statusBody } from '../../../core/http-routes'
import { Registry } from '../../../core/registry'
import { SocketEndpoints } from '../../../core/sockets'
import { createTokenCheck, newToken } from '../../../core/token'
import { DEFAULT_PRE_AUTH, PreAuthBudget } from '../../../core/preauth-budget'
import { WindowHub } from '../../../core/ui-channel'

export interface StubbedCore {
  agentUrl: string
  uiUrl: string
  token: string
  /** The window credential (the agent token does not open /v1/ui). */
  windowCredential: () => string
  registry: Registry
  hub: WindowHub
  sockets: SocketEndpoints
  warnings: string[]
  close(): Promise<void>
}

export interface StubbedCoreOptions {
  /** Default: a real Registry. */
  registry?: (warn: (message: string) => void) => Registry
  /** Default: an empty history. */
  history?: (request: HistoryPageRequest) => Promise<HistoryPage>
  limits?: Limits
}

/** Starts the sockets of a companion on 127.0.0.1:0 around the given registry and history. */
export async function startStubbedCore(options: StubbedCoreOptions = {}): Promise<StubbedCore> {
  const warnings: string[] = []
  const warn = (message: string): void => void warnings.push(message)
  const limits = options.limits ?? DEFAULT_LIMITS
  const registry = options.registry?.(warn) ?? new Registry(Date.now, warn, limits.textChars)
  const hub = new WindowHub({
    registry,
    history: options.history ?? (async () => ({ entries: [], more: false })),
    warn,
  })
  const token = newToken()
  const tokenMatches = createTokenCheck(token)
  const heartbeat = new Heartbeat(30_000)
  let port = 0
  const serverInfo = { name: 'stubbed-companion', version: '0.0.0' }
  const preAuth = new PreAuthBudget(DEFAULT_PRE_AUTH)
  const windowCredential = newToken()
  const sockets: SocketEndpoints = new SocketEndpoints({
    registry,
    hub,
    heartbeat,
    limits,
    serverInfo,
    handshakeTimeoutMs: 10_000,
    port: () => port,
    warn,
    agentSecret: () => token,
    tokenMatches,
    windowSecret: () => windowCredential,
    windowMatches: createTokenCheck(windowCredential),
    status: () => statusBody(serverInfo, registry.size, sockets.agents.size, hub.size),
    authenticated: (socket) => preAuth.authenticated(socket),
    proving: (socket) => preAuth.proving(socket),
    preAuthDeadlineMs: DEFAULT_PRE_AUTH.deadlineMs,
  })
  const server: Server = createHttpServer({
    routes: {
      port: () => port,
      tokenMatches,
      staticDir: undefined,
      status: () => statusBody(serverInfo, registry.size, sockets.agents.size, hub.size),
    },
    preAuth,
    preAuthDeadlineMs: DEFAULT_PRE_AUTH.deadlineMs,
    maxConnections: limits.connections + DEFAULT_PRE_AUTH.maxSockets + 64,
    onUpgrade: (req, socket, head) => sockets.handleUpgrade(req, socket, head),
  })
  port = await listenOnLoopback(server, 0)
  return {
    agentUrl: `ws://127.0.0.1:${port}${AGENT_PATH}`,
    uiUrl: `ws://127.0.0.1:${port}${UI_PATH}`,
    token,
    windowCredential: () => windowCredential,
    registry,
    hub,
    sockets,
    warnings,
    close: async () => {
      await sockets.closeAll(1_000)
      hub.dispose()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
