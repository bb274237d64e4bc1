import type { AgentInfo, AskpassMark } from '../shared/ask'
import type { Notice } from '../shared/approval'
import { ASK_CANCELLED_MESSAGE, type ErrorCode } from '../shared/error-codes'
import type { Limits } from '../shared/limits'
import { askQuestionFields } from '../shared/question-extras'
import type { Transport, TransportMessage } from '../shared/transport'
import { validateApproval, validateNotice } from '../shared/validate-approval'
import { validateAskInput } from '../shared/validate-input'
import {
  ApproveEnvelopeSchema,
  NoticeEnvelopeSchema,
  CancelFrameSchema,
  HelloFrameSchema,
  PROTOCOL_VERSION,
  type CompanionFrame,
  type HelloFrame,
} from '../shared/wire'
import { BINARY_FRAME_MESSAGE, parseJsonFrame } from './frames'
import type { AskOwner, Registry, Settlement } from './registry'
import { errorMessage } from '../shared/describe-error'
import { invalidFrameMessage } from '../shared/frame-issues'
import { askEnvelope, wireId } from './ask-envelope'

/** Close codes the companion uses on agent sockets. */
export const CLOSE = { GOING_AWAY: 1001, PROTOCOL_ERROR: 1002, POLICY: 1008, INTERNAL_ERROR: 1011 } as const

/** The message of the `ASK_ABORTED` error an agent gets for each pending ask when the companion stops. */
export const SHUTDOWN_MESSAGE = 'the companion is shutting down'

/** The message of the `ASK_ABORTED` error an agent gets for each pending ask when its connection failed. */
export const FAULT_MESSAGE = 'the companion hit an internal error on this connection and closed it; connect again and ask again'

/** What an agent connection needs from the companion. */
export interface AgentContext {
  registry: Registry
  limits: Limits
  serverInfo: { name: string; version: string }
  /** An agent that has not said `hello` within this many milliseconds is closed with 1008. */
  helloTimeoutMs: number
  warn: (message: string) => void
  /** Takes a checked notice (absent: notices are checked and dropped). */
  notices?: (agent: AgentInfo, notice: Notice, title: string | undefined) => void
  /** Told once the transport closed (after its pending asks settled as `agent-gone`). */
  closed?: (connection: AgentConnection) => void
}

/**
 * The companion's own look at who is on the other end of one connection: given the pid the agent
 * claimed in `hello`, the askpass mark when the kernel shows that process is this install's askpass
 * helper (core/askpass-mark.ts), else undefined. Absent: no ask on the connection is ever marked.
 */
export type PeerCheck = (claimedPid: number | undefined) => AskpassMark | undefined

/**
 * One authenticated agent connection speaking wire protocol v1 over a {@link Transport} (a WebSocket
 * through core/ws-transport.ts, or an in-memory pair in tests): `hello` first, then any number of
 * `ask` and `cancel` frames. Every bad frame gets an `error` frame and leaves the connection usable.
 * When the transport closes, every ask still pending on it settles as `agent-gone`.
 */
export class AgentConnection implements AskOwner {
  private agent: AgentInfo | undefined
  /** Set at `hello` by the companion's own {@link PeerCheck}; attached to every ask of this connection. */
  private askpass: AskpassMark | undefined
  /** wire id → askId of this connection's pending asks. */
  private readonly asks = new Map<string, string>()
  private helloTimer: NodeJS.Timeout | undefined

  /** Takes over `transport`'s callbacks; the `hello` deadline starts now. */
  constructor(
    private readonly transport: Transport,
    private readonly ctx: AgentContext,
    private readonly peerCheck?: PeerCheck,
  ) {
    this.helloTimer = setTimeout(() => transport.close(CLOSE.POLICY, 'no hello in time'), ctx.helloTimeoutMs)
    transport.onmessage = (message) => this.receive(message)
    transport.onclose = () => this.closed()
  }

  /** Companion shutdown: every pending ask fails with `ASK_ABORTED`, then the transport closes with 1001. */
  shutdown(): void {
    for (const askId of [...this.asks.values()]) this.ctx.registry.settle(askId, { outcome: 'aborted', by: 'shutdown' })
    this.transport.close(CLOSE.GOING_AWAY, 'companion shutting down')
  }

  /** Called by the registry exactly once per ask of this connection; false when the outcome could not be sent. */
  settled(wireId: string, settlement: Settlement): boolean {
    this.asks.delete(wireId)
    switch (settlement.outcome) {
      case 'answered':
        return this.send({ type: 'answer', id: wireId, answers: settlement.answers })
      case 'decided':
        return this.send({ type: 'decision', id: wireId, decision: settlement.decision })
      case 'cancelled':
        return this.send({ type: 'cancelled', id: wireId, code: 'ASK_CANCELLED', message: ASK_CANCELLED_MESSAGE })
      case 'aborted':
        if (settlement.by === 'shutdown') this.sendError('ASK_ABORTED', SHUTDOWN_MESSAGE, wireId)
        if (settlement.by === 'fault') this.sendError('ASK_ABORTED', FAULT_MESSAGE, wireId)
        return true // an agent's own cancel is not acknowledged
      case 'agent-gone':
        return true
    }
  }

  private receive(message: TransportMessage): void {
    try {
      if (message.kind === 'binary') return this.sendError('INVALID_FRAME', BINARY_FRAME_MESSAGE)
      const parsed = parseJsonFrame(message.text)
      if (!parsed.ok) return this.sendError('INVALID_FRAME', parsed.message)
      const frame = parsed.frame
      const id = wireId(frame['id'])
      switch (frame['type']) {
        case 'hello':
          return this.hello(frame)
        case 'ask':
          return this.ask(frame, id)
        case 'approve':
          return this.approve(frame, id)
        case 'notice':
          return this.notice(frame, id)
        case 'cancel':
          return this.cancel(frame, id)
        default:
          return this.sendError('INVALID_FRAME', `unknown frame type ${JSON.stringify(frame['type'])}`, id)
      }
    } catch (error) {
      this.fault(error)
    }
  }

  /**
   * Handling a frame threw (a fault of ours, not the agent's): this connection alone ends. Its pending
   * asks settle `aborted` (the agent gets `ASK_ABORTED` for each) and the socket closes with 1011;
   * every other connection, window and ask goes on.
   */
  private fault(error: unknown): void {
    this.ctx.warn(`an agent's frame handler failed; the connection is closed: ${errorMessage(error)}`)
    for (const askId of [...this.asks.values()]) {
      try {
        this.ctx.registry.settle(askId, { outcome: 'aborted', by: 'fault' })
      } catch (failure) {
        this.ctx.warn(`settling an ask of a failed connection failed: ${errorMessage(failure)}`)
      }
    }
    this.asks.clear()
    this.transport.close(CLOSE.INTERNAL_ERROR, 'internal error')
  }

  private hello(raw: Record<string, unknown>): void {
    if (this.agent) return this.sendError('INVALID_FRAME', 'hello was already received on this connection')
    const parsed = HelloFrameSchema.safeParse(raw)
    if (!parsed.success) return this.sendError('INVALID_FRAME', invalidFrameMessage('hello', raw, parsed.error.issues))
    const frame = parsed.data
    if (frame.protocol !== PROTOCOL_VERSION) {
      this.sendError('UNSUPPORTED_PROTOCOL', `protocol ${frame.protocol} is not supported; this companion speaks ${PROTOCOL_VERSION}`)
      this.transport.close(CLOSE.PROTOCOL_ERROR, 'unsupported protocol')
      return
    }
    const tooLong = longClientField(frame, this.ctx.limits.textChars)
    if (tooLong) return this.sendError('LIMIT_EXCEEDED', `limit exceeded: "client.${tooLong}" is longer than ${this.ctx.limits.textChars} characters`)
    clearTimeout(this.helloTimer)
    this.helloTimer = undefined
    const { name, pid, cwd, title } = frame.client
    this.agent = { name }
    if (pid !== undefined) this.agent.pid = pid
    if (cwd !== undefined) this.agent.cwd = cwd
    if (title !== undefined) this.agent.title = title
    this.askpass = this.checkPeer(pid)
    this.send({ type: 'welcome', protocol: PROTOCOL_VERSION, server: this.ctx.serverInfo })
  }

  private ask(raw: Record<string, unknown>, id: string | undefined): void {
    const frame = askEnvelope(raw, id)
    if (!frame.ok) return this.sendError('INVALID_FRAME', invalidFrameMessage('ask', raw, frame.issues), id)
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', id)
    const { limits, registry } = this.ctx
    if (this.asks.has(frame.id)) return this.sendError('DUPLICATE_ID', `ask id "${frame.id}" is already pending on this connection`, frame.id)
    // The ask's arguments are checked as the tool checks them (a missing `questions` is INVALID_ARGS),
    // plus the per-question `detail` and `intent` that protocol clients may send.
    const input = validateAskInput(Object.hasOwn(raw, 'questions') ? { questions: raw['questions'] } : {}, limits)
    if (!input.ok) return this.sendError(input.code, input.message, frame.id)
    const refusal = this.capRefusal(frame.title)
    if (refusal) return this.sendError('LIMIT_EXCEEDED', refusal, frame.id)
    const questions = input.input.questions.map(askQuestionFields)
    const ask = registry.add({ kind: 'question', agent: this.agent, title: frame.title, questions, ...(this.askpass ? { askpass: this.askpass } : {}), wireId: frame.id, owner: this })
    this.asks.set(frame.id, ask.askId)
  }

  /** An approval: the envelope (`INVALID_FRAME`), then the request (`INVALID_ARGS` / `LIMIT_EXCEEDED`), then the pending caps. */
  private approve(raw: Record<string, unknown>, id: string | undefined): void {
    const parsed = ApproveEnvelopeSchema.safeParse(raw)
    if (!parsed.success) return this.sendError('INVALID_FRAME', invalidFrameMessage('approve', raw, parsed.error.issues), id)
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', id)
    const frame = parsed.data
    if (this.asks.has(frame.id)) return this.sendError('DUPLICATE_ID', `ask id "${frame.id}" is already pending on this connection`, frame.id)
    const request = validateApproval(raw['approval'], this.ctx.limits)
    if (!request.ok) return this.sendError(request.code, request.message, frame.id)
    const refusal = this.capRefusal(frame.title)
    if (refusal) return this.sendError('LIMIT_EXCEEDED', refusal, frame.id)
    const ask = this.ctx.registry.add({ kind: 'approval', agent: this.agent, title: frame.title, approval: request.value, wireId: frame.id, owner: this })
    this.asks.set(frame.id, ask.askId)
  }

  /** A notice: checked like an approval, then handed on; nothing is replied unless it is refused. */
  private notice(raw: Record<string, unknown>, id: string | undefined): void {
    const parsed = NoticeEnvelopeSchema.safeParse(raw)
    if (!parsed.success) return this.sendError('INVALID_FRAME', invalidFrameMessage('notice', raw, parsed.error.issues), id)
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', id)
    const notice = validateNotice(raw['notice'], this.ctx.limits)
    if (!notice.ok) return this.sendError(notice.code, notice.message, id)
    const title = parsed.data.title
    if (title !== undefined && title.length > this.ctx.limits.textChars) {
      return this.sendError('LIMIT_EXCEEDED', `limit exceeded: "title" has ${title.length} characters; at most ${this.ctx.limits.textChars} are allowed`, id)
    }
    this.ctx.notices?.(this.agent, notice.value, title)
  }

  /** Why one more pending ask with `title` would break a cap, or undefined. */
  private capRefusal(title: string | undefined): string | undefined {
    const { limits, registry } = this.ctx
    if (title !== undefined && title.length > limits.textChars) return `limit exceeded: "title" has ${title.length} characters; at most ${limits.textChars} are allowed`
    if (this.asks.size >= limits.pendingPerConnection) return `limit exceeded: at most ${limits.pendingPerConnection} asks may be pending on one connection`
    if (registry.size >= limits.pendingTotal) return `limit exceeded: at most ${limits.pendingTotal} asks may be pending in the companion`
    return undefined
  }

  private cancel(raw: Record<string, unknown>, id: string | undefined): void {
    const parsed = CancelFrameSchema.safeParse(raw)
    if (!parsed.success) return this.sendError('INVALID_FRAME', invalidFrameMessage('cancel', raw, parsed.error.issues), id)
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', id)
    const askId = this.asks.get(parsed.data.id)
    if (askId === undefined) return this.sendError('NOT_PENDING', `ask id "${parsed.data.id}" is not pending`, parsed.data.id)
    this.ctx.registry.settle(askId, { outcome: 'aborted', by: 'agent' })
  }

  /** The peer check never breaks a connection: a failure leaves the asks unmarked. */
  private checkPeer(pid: number | undefined): AskpassMark | undefined {
    if (!this.peerCheck) return undefined
    try {
      return this.peerCheck(pid)
    } catch (error) {
      this.ctx.warn(`askpass peer check failed: ${errorMessage(error)}`)
      return undefined
    }
  }

  private closed(): void {
    clearTimeout(this.helloTimer)
    for (const askId of [...this.asks.values()]) this.ctx.registry.settle(askId, { outcome: 'agent-gone' })
    this.ctx.closed?.(this)
  }

  private sendError(code: ErrorCode, message: string, id?: string): void {
    this.send(id === undefined ? { type: 'error', code, message } : { type: 'error', id, code, message })
  }

  private send(frame: CompanionFrame): boolean {
    return this.transport.send(JSON.stringify(frame))
  }
}

function longClientField(frame: HelloFrame, max: number): string | undefined {
  for (const key of ['name', 'version', 'cwd', 'title'] as const) {
    const value = frame.client[key]
    if (value !== undefined && value.length > max) return key
  }
  return undefined
}

