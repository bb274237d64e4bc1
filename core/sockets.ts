import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Notice } from '../shared/approval'
import type { AgentInfo } from '../shared/ask'
import type { Limits } from '../shared/limits'
import type { Transport } from '../shared/transport'
import { UI_SUBPROTOCOL, type UiServerFrame } from '../shared/ui'
import { AGENT_SUBPROTOCOL, CloseCode } from '../shared/wire'
import type { CompanionStatus } from '../shared/endpoint'
import { AGENT_PROOF_SUBPROTOCOL, StatusRequestFrameSchema, UI_PROOF_SUBPROTOCOL } from '../shared/proof'
import { runProofStage } from './proof-stage'
import { parseWindowFrame, rejected } from './ui-frames'
import { parseV1WindowFrame, toV1Frame, UI_V1_PROOF_SUBPROTOCOL, UI_V1_SUBPROTOCOL } from './ui-v1'
import { AgentConnection, type AgentContext, type PeerCheck } from './agent-connection'
import { askpassMarkOf, type HelperIdentity } from './askpass-mark'
import { BINARY_FRAME_MESSAGE, decodeJson } from './frames'
import { checkUpgrade, rejectUpgrade } from './handshake'
import { destroyThis } from './http-server'
import type { Heartbeat } from './heartbeat'
import type { NoticeBoard } from './notice-board'
import type { Registry } from './registry'
import type { WindowHub } from './ui-channel'
import { registerStream, whenDrained, wsTransport } from './ws-transport'
import { WindowQueues } from './window-queues'
import { errorMessage } from '../shared/describe-error'

/** What the socket endpoints need from the companion. */
export interface SocketContext {
  registry: Registry
  /** Where agents' notices go (absent: they are checked and dropped). */
  notices?: NoticeBoard
  hub: WindowHub
  heartbeat: Heartbeat
  limits: Limits
  serverInfo: { name: string; version: string }
  handshakeTimeoutMs: number
  port: () => number
  /** The agent token (the proof's secret on `/v1/agent`) and its constant-time check. */
  agentSecret: () => string
  tokenMatches: (presented: string | undefined) => boolean
  /** The window credential now (the proof's secret on `/v1/ui`) and its constant-time check. */
  windowSecret: () => string
  windowMatches: (presented: string | undefined) => boolean
  /** The body of a `status` reply (also `GET /v1/status`). */
  status: () => CompanionStatus
  /**
   * Marks `socket` authenticated: it leaves the pre-auth budget (preauth-budget.ts) for the connection
   * cap. Under a proof subprotocol that happens only once the client proved itself.
   */
  authenticated: (socket: Duplex) => void
  /** `socket` passed the upgrade checks under a proof subprotocol and now proves itself (preauth-budget.ts). */
  proving: (socket: Duplex) => void
  /** Milliseconds a client under a proof subprotocol has to prove itself (the pre-auth deadline). */
  preAuthDeadlineMs: number
  warn: (message: string) => void
  /** This install's askpass helper: agent connections from it get the askpass mark (askpass-mark.ts). */
  askpassHelper?: HelperIdentity
}

/** Close code of a window socket whose credential was rotated: it must open a window again. */
export const CREDENTIAL_ROTATED_CLOSE = 4401

/**
 * The two WebSocket endpoints on the companion's HTTP server: `/v1/agent` (agents) and `/v1/ui`
 * (windows). Upgrades are checked before ws sees them (see handshake.ts); past the checks, the
 * connection cap (agents + windows) answers 503, as does a companion that is shutting down. An upgrade
 * that gets through all of that is authenticated: it leaves the pre-auth budget (preauth-budget.ts),
 * and from then on counts only against the connection cap. Each
 * accepted socket is tracked by the heartbeat and handed on as a {@link Transport} (ws-transport.ts):
 * to an {@link AgentConnection}, or to a window session of the hub.
 */
export class SocketEndpoints {
  /** Open agent connections (authenticated; `hello` may still be due). */
  readonly agents = new Set<AgentConnection>()
  private readonly sockets = new Set<WebSocket>()
  /** Window sockets, closed when the window credential rotates. */
  private readonly windowSockets = new Set<WebSocket>()
  private readonly agentServer: WebSocketServer
  private readonly uiServer: WebSocketServer
  /** What all windows together may leave unread (`limits.windowQueueBytes`). */
  private readonly windowQueues: WindowQueues
  private closing = false

  /** What every agent connection shares (one object, not one per connection). */
  private readonly agentContext: AgentContext

  constructor(private readonly ctx: SocketContext) {
    const notices = ctx.notices
    this.agentContext = {
      ...(notices
        ? {
            notices: (from: AgentInfo, notice: Notice, title: string | undefined) =>
              void notices.add(from, notice, title),
          }
        : {}),
      registry: ctx.registry,
      limits: ctx.limits,
      serverInfo: ctx.serverInfo,
      helloTimeoutMs: ctx.handshakeTimeoutMs,
      warn: ctx.warn,
      closed: (agent) => this.agents.delete(agent),
    }
    this.windowQueues = new WindowQueues(ctx.limits.windowQueueBytes)
    const common = {
      noServer: true,
      maxPayload: ctx.limits.frameBytes,
      perMessageDeflate: false,
      clientTracking: false,
    }
    // The handshake already checked what was offered; the proof subprotocol wins when both are.
    this.agentServer = new WebSocketServer({
      ...common,
      handleProtocols: (offered) =>
        offered.has(AGENT_PROOF_SUBPROTOCOL) ? AGENT_PROOF_SUBPROTOCOL : AGENT_SUBPROTOCOL,
    })
    this.uiServer = new WebSocketServer({
      ...common,
      handleProtocols: (offered) => UI_PROTOCOLS_PREFERRED.find((protocol) => offered.has(protocol)) ?? false,
    })
  }

  /** The HTTP server's 'upgrade' handler. Never throws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', destroyThis)
    try {
      const decision = checkUpgrade(req, {
        port: this.ctx.port(),
        tokenMatches: this.ctx.tokenMatches,
        windowMatches: this.ctx.windowMatches,
      })
      if (!decision.ok) return rejectUpgrade(socket, decision.status, decision.message)
      if (this.closing) return rejectUpgrade(socket, 503, 'the companion is shutting down')
      if (this.sockets.size >= this.ctx.limits.connections) {
        return rejectUpgrade(socket, 503, `too many connections (at most ${this.ctx.limits.connections})`)
      }
      // Authenticated from here on (a valid token or credential, and room under the connection cap),
      // unless the client chose a proof subprotocol: then once it proved itself (accepted() below).
      if (decision.proof === undefined) this.ctx.authenticated(socket)
      else this.ctx.proving(socket)
      const server = decision.route === 'agent' ? this.agentServer : this.uiServer
      const window =
        decision.route === 'agent'
          ? undefined
          : { masksSecrets: declaresMasking(req.url), fromPage: req.headers.origin !== undefined }
      const proof = decision.proof
      const peerPort = req.socket.remotePort
      server.handleUpgrade(req, socket, head, (ws) => this.accepted(ws, socket, window, { proof, peerPort }))
    } catch (error) {
      this.ctx.warn(`upgrade failed: ${errorMessage(error)}`)
      socket.destroy()
    }
  }

  /**
   * Shutdown: agents' pending asks fail with `ASK_ABORTED` and every socket gets close 1001; sockets
   * that have not finished the closing handshake within `graceMs` are terminated.
   */
  async closeAll(graceMs: number): Promise<void> {
    this.closing = true
    const closed = [...this.sockets].map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) resolve()
          else ws.once('close', () => resolve())
        }),
    )
    for (const agent of this.agents) agent.shutdown()
    for (const ws of this.sockets)
      if (ws.readyState === ws.OPEN) ws.close(CloseCode.GOING_AWAY, 'companion shutting down')
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const ws of this.sockets) ws.terminate()
        resolve()
      }, graceMs)
    })
    await Promise.race([Promise.all(closed), deadline])
    clearTimeout(timer)
    this.agentServer.close()
    this.uiServer.close()
  }

  /** Closes every window socket after the window credential rotated (IPC windows are not affected). */
  closeWindowSockets(reason: string): void {
    for (const ws of this.windowSockets) ws.close(CREDENTIAL_ROTATED_CLOSE, reason.slice(0, 120))
  }

  /**
   * An upgraded socket: an agent's, or a window's (`window` set). With `proof`, the client proves
   * itself first (proof-stage.ts); the session starts only then, and only then does the socket leave
   * the pre-auth budget.
   */
  private accepted(
    ws: WebSocket,
    stream: Duplex,
    window: WindowUpgrade | undefined,
    { proof, peerPort }: { proof: { clientNonce: string } | undefined; peerPort: number | undefined },
  ): void {
    if (this.closing) return ws.close(CloseCode.GOING_AWAY, 'companion shutting down')
    registerStream(ws, stream)
    this.track(ws)
    if (window) this.windowQueues.track(ws)
    const transport = window ? wsTransport(ws, this.windowQueues) : wsTransport(ws)
    const open = (proven: Transport): void => {
      if (window) this.openWindow(ws, proven, window)
      else if (proof) this.openProvenAgent(proven, peerPort)
      else this.openAgent(proven, peerPort)
    }
    if (proof === undefined) return open(transport)
    runProofStage(transport, {
      channel: window ? 'ui' : 'agent',
      clientNonce: proof.clientNonce,
      secret: window ? this.ctx.windowSecret : this.ctx.agentSecret,
      timeoutMs: this.ctx.preAuthDeadlineMs,
      proven: (proven) => {
        this.ctx.authenticated(stream)
        open(proven)
      },
    })
  }

  private track(ws: WebSocket): void {
    this.sockets.add(ws)
    ws.on('close', this.untrack)
    this.ctx.heartbeat.track(ws)
  }

  /** One 'close' listener for every socket (`this` is the socket that closed). */
  private readonly untrack = ((sockets: Set<WebSocket>) =>
    function (this: WebSocket): void {
      sockets.delete(this)
    })(this.sockets)

  private openAgent(transport: Transport, peerPort: number | undefined): void {
    const helper = this.ctx.askpassHelper
    const serverPort = this.ctx.port()
    const peerCheck: PeerCheck | undefined =
      helper && peerPort !== undefined
        ? (claimedPid) => askpassMarkOf({ peerPort, serverPort }, claimedPid, helper)
        : undefined
    const agent = new AgentConnection(transport, this.agentContext, peerCheck)
    this.agents.add(agent)
  }

  /** A proven agent: its first frame is `status` (answered, then closed) or the start of a session. */
  private openProvenAgent(transport: Transport, peerPort: number | undefined): void {
    transport.onmessage = (message) => {
      if (message.kind === 'text' && isStatusRequest(message.text)) {
        transport.onmessage = undefined
        transport.send(JSON.stringify({ type: 'status', ...this.ctx.status() }))
        return transport.close(CloseCode.NORMAL_CLOSURE, 'status sent')
      }
      this.openAgent(transport, peerPort)
      transport.onmessage?.(message)
    }
  }

  /**
   * A window over the UI socket: its frames are checked here, once (ui-frames.ts; binary, non-JSON and
   * invalid frames get `ask/rejected INVALID_FRAME`), and handed to the hub typed. A window that chose
   * v1 (deprecated) has its frames translated both ways here (ui-v1.ts); one with an `Origin` is an old
   * tab of our own page (a foreign Origin never gets this far) and is told to reload.
   */
  private openWindow(ws: WebSocket, transport: Transport, window: WindowUpgrade): void {
    const v1 = ws.protocol === UI_V1_SUBPROTOCOL || ws.protocol === UI_V1_PROOF_SUBPROTOCOL
    const parse = v1 ? parseV1WindowFrame : parseWindowFrame
    const send: (frame: UiServerFrame, json: string) => void = v1
      ? (frame) => {
          const v1Frame = toV1Frame(frame, window.fromPage)
          if (v1Frame) void transport.send(JSON.stringify(v1Frame))
        }
      : (_frame, json) => void transport.send(json)
    const session = this.ctx.hub.attach(send, {
      masksSecrets: window.masksSecrets,
      whenWritable: (resume) => whenDrained(ws, resume),
      onFault: () => transport.close(CloseCode.INTERNAL_ERROR, 'internal error'),
    })
    this.windowSockets.add(ws)
    transport.onclose = () => {
      this.windowSockets.delete(ws)
      session.close()
    }
    const refuse = (frame: UiServerFrame): void => send(frame, JSON.stringify(frame))
    transport.onmessage = (message) => {
      if (message.kind === 'binary') return refuse(rejected('', 'INVALID_FRAME', BINARY_FRAME_MESSAGE))
      const decoded = decodeJson(message.text)
      if (!decoded.ok) return refuse(rejected('', 'INVALID_FRAME', decoded.message))
      const checked = parse(decoded.value)
      if (!checked.ok) return refuse(checked.rejected)
      session.receive(checked.frame)
    }
  }
}

/** The UI channel's subprotocols, the one chosen first when a client offers several (v2 before v1, the proof first). */
const UI_PROTOCOLS_PREFERRED = [UI_PROOF_SUBPROTOCOL, UI_SUBPROTOCOL, UI_V1_PROOF_SUBPROTOCOL, UI_V1_SUBPROTOCOL]

/** What the upgrade of a window's socket said about it. */
interface WindowUpgrade {
  /** It declared `secrets=masked`. */
  masksSecrets: boolean
  /** It sent an `Origin` (a page of ours: the handshake refuses every other). */
  fromPage: boolean
}

function isStatusRequest(text: string): boolean {
  try {
    return StatusRequestFrameSchema.safeParse(JSON.parse(text)).success
  } catch {
    return false
  }
}

/** True when the UI client's URL carries `secrets=masked` (it masks secret questions). */
function declaresMasking(url: string | undefined): boolean {
  const query = url?.split('?')[1]
  return query !== undefined && new URLSearchParams(query).get('secrets') === 'masked'
}
