import { AgentInfoSchema, type AgentInfo, type AskpassMark } from '../shared/ask'
import type { Notice } from '../shared/approval'
import { errorMessage } from '../shared/describe-error'
import { ASK_CANCELLED_MESSAGE, type ErrorCode } from '../shared/error-codes'
import { invalidFrameMessage, limitExceededMessage, overCap, type Issue } from '../shared/issue-wording'
import type { Limits } from '../shared/limits'
import { askQuestionFields } from '../shared/question-extras'
import type { Transport, TransportMessage } from '../shared/transport'
import { validateApproval, validateNotice } from '../shared/validate-approval'
import { validateAskInput } from '../shared/validate-input'
import {
  AgentFrameSchema,
  CloseCode,
  PROTOCOL_VERSION,
  SESSION_CHARS,
  WireAskIdSchema,
  type ApproveFrame,
  type AskFrame,
  type CancelFrame,
  type CompanionFrame,
  type HelloFrame,
  type NoticeFrame,
} from '../shared/wire'
import { BINARY_FRAME_MESSAGE, parseJsonFrame } from './frames'
import type { AskOwner, Registry, Settlement } from './registry'

/** The `type`s an agent may send: the discriminators of `AgentFrameSchema`. */
const AGENT_FRAME_TYPES: ReadonlySet<string> = new Set(
  AgentFrameSchema.options.map((option) => option.shape.type.value),
)

/** The message of the `ASK_ABORTED` error an agent gets for each pending ask when the companion stops. */
export const SHUTDOWN_MESSAGE = 'the companion is shutting down'

/** The message of the `ASK_ABORTED` error an agent gets for each pending ask when its connection failed. */
export const FAULT_MESSAGE =
  'the companion hit an internal error on this connection and closed it; connect again and ask again'

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
    this.helloTimer = setTimeout(
      () => transport.close(CloseCode.POLICY_VIOLATION, 'no hello in time'),
      ctx.helloTimeoutMs,
    )
    transport.onmessage = (message) => this.receive(message)
    transport.onclose = () => this.closed()
  }

  /** Companion shutdown: every pending ask fails with `ASK_ABORTED`, then the transport closes with 1001. */
  shutdown(): void {
    for (const askId of [...this.asks.values()]) this.ctx.registry.settle(askId, { outcome: 'aborted', by: 'shutdown' })
    this.transport.close(CloseCode.GOING_AWAY, 'companion shutting down')
  }

  /** Called by the registry exactly once per ask of this connection; false when the outcome could not be sent. */
  settled(wireId: string, settlement: Settlement): boolean {
    this.asks.delete(wireId)
    switch (settlement.outcome) {
      case 'answered':
        return this.send({ type: 'answer', id: wireId, answers: settlement.answers })
      case 'decided':
        // Only a remote approval settles without its decision (decided elsewhere), and its owner is the relay bridge.
        if (settlement.decision === undefined) throw new Error(`approval ${wireId} settled without its decision`)
        return this.send({ type: 'decision', id: wireId, decision: settlement.decision })
      case 'cancelled':
        return this.send({ type: 'cancelled', id: wireId, code: 'ASK_CANCELLED', message: ASK_CANCELLED_MESSAGE })
      case 'aborted':
        if (settlement.by === 'shutdown') this.sendError('ASK_ABORTED', SHUTDOWN_MESSAGE, wireId)
        if (settlement.by === 'fault') this.sendError('ASK_ABORTED', FAULT_MESSAGE, wireId)
        return true // an agent's own cancel is not acknowledged
      case 'agent-gone':
      case 'expired': // only remote asks expire (core/relay-bridge); a local agent's ask never does
        return true
    }
  }

  /**
   * Every agent frame is parsed here, once: JSON, an object with a string `type`, then
   * `AgentFrameSchema` (the envelope; `INVALID_FRAME`). Each handler then checks its payload
   * (`INVALID_ARGS`, `EMPTY_QUESTIONS`, `LIMIT_EXCEEDED`) and the connection's state.
   */
  private receive(message: TransportMessage): void {
    try {
      if (message.kind === 'binary') return this.sendError('INVALID_FRAME', BINARY_FRAME_MESSAGE)
      const read = parseJsonFrame(message.text)
      if (!read.ok) return this.sendError(read.code, read.message)
      const parsed = AgentFrameSchema.safeParse(read.value)
      if (!parsed.success) return this.refuse(read.value, parsed.error.issues)
      const frame = parsed.data
      switch (frame.type) {
        case 'hello':
          return this.hello(frame)
        case 'ask':
          return this.ask(frame)
        case 'approve':
          return this.approve(frame)
        case 'notice':
          return this.notice(frame)
        case 'cancel':
          return this.cancel(frame)
      }
    } catch (error) {
      this.fault(error)
    }
  }

  /**
   * A frame `AgentFrameSchema` refused: an unknown `type`, or the first issue of a known one in our
   * words. The reply carries the frame's `id` when that alone is a valid wire id.
   */
  private refuse(raw: Record<string, unknown>, issues: readonly Issue[]): void {
    const type = String(raw['type'])
    const id = WireAskIdSchema.safeParse(raw['id']).data
    if (!AGENT_FRAME_TYPES.has(type))
      return this.sendError('INVALID_FRAME', `unknown frame type ${JSON.stringify(type)}`, id)
    if (type !== 'hello') return this.sendError('INVALID_FRAME', invalidFrameMessage(type, raw, issues), id)
    if (this.agent) return this.sendError('INVALID_FRAME', 'hello was already received on this connection')
    this.sendError('INVALID_FRAME', invalidFrameMessage('hello', raw, issues))
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
    this.transport.close(CloseCode.INTERNAL_ERROR, 'internal error')
  }

  private hello(frame: HelloFrame): void {
    if (this.agent) return this.sendError('INVALID_FRAME', 'hello was already received on this connection')
    if (frame.protocol !== PROTOCOL_VERSION) {
      this.sendError(
        'UNSUPPORTED_PROTOCOL',
        `protocol ${frame.protocol} is not supported; this companion speaks ${PROTOCOL_VERSION}`,
      )
      this.transport.close(CloseCode.PROTOCOL_ERROR, 'unsupported protocol')
      return
    }
    const tooLong = longClientField(frame, this.ctx.limits.textChars)
    if (tooLong)
      return this.sendError(
        'LIMIT_EXCEEDED',
        `limit exceeded: "client.${tooLong.key}" is longer than ${tooLong.max} characters`,
      )
    clearTimeout(this.helloTimer)
    this.helloTimer = undefined
    // who asks, as the person sees it: the hello's client without its version and extra keys
    this.agent = AgentInfoSchema.parse(frame.client)
    this.askpass = this.checkPeer(frame.client.pid)
    this.send({ type: 'welcome', protocol: PROTOCOL_VERSION, server: this.ctx.serverInfo })
  }

  /** An ask: the envelope was checked; then hello, a fresh id, the arguments as the tool checks them, the caps. */
  private ask(frame: AskFrame): void {
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', frame.id)
    if (this.asks.has(frame.id))
      return this.sendError('DUPLICATE_ID', `ask id "${frame.id}" is already pending on this connection`, frame.id)
    // A missing `questions` is INVALID_ARGS (`missing required property "questions"`), as the tool says it.
    const input = validateAskInput({ questions: frame.questions }, this.ctx.limits)
    if (!input.ok) return this.sendError(input.code, input.message, frame.id)
    const refusal = this.capRefusal(frame.title)
    if (refusal) return this.sendError('LIMIT_EXCEEDED', refusal, frame.id)
    const questions = input.value.questions.map(askQuestionFields)
    const ask = this.ctx.registry.add({
      kind: 'question',
      agent: this.agent,
      title: frame.title,
      questions,
      ...(this.askpass ? { askpass: this.askpass } : {}),
      wireId: frame.id,
      owner: this,
    })
    this.asks.set(frame.id, ask.askId)
  }

  /** An approval: the envelope (`INVALID_FRAME`), then the request (`INVALID_ARGS` / `LIMIT_EXCEEDED`), then the pending caps. */
  private approve(frame: ApproveFrame): void {
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', frame.id)
    if (this.asks.has(frame.id))
      return this.sendError('DUPLICATE_ID', `ask id "${frame.id}" is already pending on this connection`, frame.id)
    const request = validateApproval(frame.approval, this.ctx.limits)
    if (!request.ok) return this.sendError(request.code, request.message, frame.id)
    const refusal = this.capRefusal(frame.title)
    if (refusal) return this.sendError('LIMIT_EXCEEDED', refusal, frame.id)
    const ask = this.ctx.registry.add({
      kind: 'approval',
      agent: this.agent,
      title: frame.title,
      approval: request.value,
      wireId: frame.id,
      owner: this,
    })
    this.asks.set(frame.id, ask.askId)
  }

  /** A notice: checked like an approval, then handed on; nothing is replied unless it is refused. */
  private notice(frame: NoticeFrame): void {
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', frame.id)
    const notice = validateNotice(frame.notice, this.ctx.limits)
    if (!notice.ok) return this.sendError(notice.code, notice.message, frame.id)
    const tooLong = titleTooLong(frame.title, this.ctx.limits)
    if (tooLong) return this.sendError('LIMIT_EXCEEDED', tooLong, frame.id)
    this.ctx.notices?.(this.agent, notice.value, frame.title)
  }

  /** Why one more pending ask with `title` would break a cap, or undefined. */
  private capRefusal(title: string | undefined): string | undefined {
    const { limits, registry } = this.ctx
    const tooLong = titleTooLong(title, limits)
    if (tooLong) return tooLong
    if (this.asks.size >= limits.pendingPerConnection)
      return `limit exceeded: at most ${limits.pendingPerConnection} asks may be pending on one connection`
    if (registry.size >= limits.pendingTotal)
      return `limit exceeded: at most ${limits.pendingTotal} asks may be pending in the companion`
    return undefined
  }

  private cancel(frame: CancelFrame): void {
    if (!this.agent) return this.sendError('INVALID_FRAME', 'the first frame must be hello', frame.id)
    const askId = this.asks.get(frame.id)
    if (askId === undefined) return this.sendError('NOT_PENDING', `ask id "${frame.id}" is not pending`, frame.id)
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

/** The `LIMIT_EXCEEDED` message for a `title` longer than `textChars`, or undefined. */
function titleTooLong(title: string | undefined, limits: Limits): string | undefined {
  if (title === undefined || title.length <= limits.textChars) return undefined
  return limitExceededMessage([overCap('title', title.length, limits.textChars)])
}

/** The first `client` field over its cap, with that cap: `textChars`, and {@link SESSION_CHARS} for `session`. */
function longClientField(frame: HelloFrame, textChars: number): { key: string; max: number } | undefined {
  for (const key of ['name', 'version', 'cwd', 'title', 'session'] as const) {
    const value = frame.client[key]
    const max = key === 'session' ? Math.min(SESSION_CHARS, textChars) : textChars
    if (value !== undefined && value.length > max) return { key, max }
  }
  return undefined
}
