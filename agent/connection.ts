import { acceptAnswer, type CheckedAnswer } from '../shared/answer-rules'
import { decisionProblem, type ApprovalDecision, type ApprovalRequest, type Notice } from '../shared/approval'
import { ASK_CANCELLED_MESSAGE, AskUserError } from '../shared/error-codes'
import type { Transport, TransportMessage } from '../shared/transport'
import type { ValidatedAsk } from '../shared/validate-input'
import {
  CloseCode,
  CompanionFrameSchema,
  PROTOCOL_VERSION,
  type AgentFrame,
  type ClientInfo,
  type AnswerFrame,
  type CompanionFrame,
  type DecisionFrame,
} from '../shared/wire'
import type { Endpoint } from './discovery'
import { AskAbortedError } from './errors'
import { HandshakeError, dialCompanion } from './ws-transport'

/** Settles one ask waiting on a connection: with the person's checked answer, or with the error. */
export interface PendingAsk {
  resolve(answer: CheckedAnswer): void
  reject(error: AskUserError): void
}

/** Settles one approval waiting on a connection: with the person's decision, or with the error. */
export interface PendingApproval {
  resolve(decision: ApprovalDecision): void
  reject(error: AskUserError): void
}

/** An ask or approval in flight: how its reply settles it, and whom to tell of an error. */
interface InFlight {
  settle(frame: AnswerFrame | DecisionFrame): void
  reject(error: AskUserError): void
}

/** An ask's reply: an answer checked against what was asked; a decision is the wrong kind of reply. */
function askInFlight(ask: ValidatedAsk, pending: PendingAsk): InFlight {
  return {
    reject: (error) => pending.reject(error),
    settle(frame) {
      if (frame.type === 'decision')
        return pending.reject(new AskUserError('INVALID_ANSWER', 'the companion sent a decision for an ask'))
      const check = acceptAnswer(ask.questions, { answers: frame.answers })
      if (check.ok) return pending.resolve(check.answer)
      pending.reject(
        new AskUserError(
          'INVALID_ANSWER',
          `the companion sent an answer that breaks the answer rules: ${check.violations.map((v) => v.message).join('; ')}`,
        ),
      )
    },
  }
}

/** An approval's reply: a decision (an `always` the request did not offer is refused). */
function approvalInFlight(request: ApprovalRequest, pending: PendingApproval): InFlight {
  return {
    reject: (error) => pending.reject(error),
    settle(frame) {
      if (frame.type === 'answer')
        return pending.reject(new AskUserError('INVALID_ANSWER', 'the companion sent an answer for an approval'))
      const problem = decisionProblem(request, frame.decision)
      if (problem !== undefined)
        return pending.reject(
          new AskUserError('INVALID_ANSWER', `the companion sent a decision that does not fit the request: ${problem}`),
        )
      pending.resolve(frame.decision)
    },
  }
}

/** A companion frame off the wire, or undefined when it is binary, not JSON or not a companion frame. */
function parseFrame(message: TransportMessage): CompanionFrame | undefined {
  if (message.kind === 'binary') return undefined
  try {
    const parsed = CompanionFrameSchema.safeParse(JSON.parse(message.text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * One greeted connection to the companion's agent endpoint, over a {@link Transport} (the WebSocket of
 * ws-transport.ts, or an in-memory pair in tests), carrying any number of asks. It sends asks already
 * validated ({@link ValidatedAsk}) as they are, and is where the companion's frames come in: each is
 * parsed here, once, and an answer is checked against the answer rules before it resolves, typed
 * {@link CheckedAnswer}. When the transport closes (for whatever reason) every ask still pending fails
 * once with `ASK_ABORTED` (reason `connection-lost`), in one place: {@link Connection.#failAll}.
 */
export class Connection {
  readonly #transport: Transport
  readonly #pending = new Map<string, InFlight>()
  readonly #closedWaiters: Array<() => void> = []
  #closed = false
  #onClose: (() => void) | undefined

  private constructor(transport: Transport) {
    this.#transport = transport
    transport.onmessage = (message) => this.#receive(parseFrame(message))
    transport.onclose = (code, reason) => this.#failAll(code, reason)
  }

  /**
   * Dials the endpoint's WebSocket, sends `hello` and waits for `welcome`. Fails with `NO_PROVIDER`
   * (message says how to start the companion) when the endpoint cannot be reached, refuses us, or does
   * not greet us within `timeoutMs` (see {@link dialCompanion}).
   */
  static open(endpoint: Endpoint, client: ClientInfo, timeoutMs: number): Promise<Connection> {
    return dialCompanion(endpoint, timeoutMs, (transport) => Connection.greet(transport, client))
  }

  /**
   * The protocol's opening over an open transport: sends `hello {protocol, client}` and resolves with
   * the connection once `welcome` arrives. Rejects with a {@link HandshakeError} when the first frame
   * is an `error` (`<code>: <message>`) or anything else, or the transport closes first; the caller
   * then disposes of the transport. No deadline of its own (the dialer has one).
   */
  static greet(transport: Transport, client: ClientInfo): Promise<Connection> {
    return new Promise((resolve, reject) => {
      transport.onmessage = (message) => {
        const frame = parseFrame(message)
        if (frame?.type === 'welcome') resolve(new Connection(transport))
        else if (frame?.type === 'error') reject(new HandshakeError(`${frame.code}: ${frame.message}`))
        else reject(new HandshakeError('the first frame was not a welcome'))
      }
      transport.onclose = (code) => reject(new HandshakeError(`connection closed with code ${code} before the welcome`))
      const hello: AgentFrame = { type: 'hello', protocol: PROTOCOL_VERSION, client }
      if (!transport.send(JSON.stringify(hello))) reject(new HandshakeError('the transport closed before the hello'))
    })
  }

  /** Called once when the transport has closed and every pending ask has been failed. */
  onClose(listener: () => void): void {
    this.#onClose = listener
  }

  /**
   * Sends an ask with the client-minted `id`; `pending` is settled by the companion's reply or the
   * close. Throws (nothing sent, nothing pending) when the questions hold what JSON cannot carry.
   */
  ask(id: string, ask: ValidatedAsk, title: string | undefined, pending: PendingAsk): void {
    const frame: AgentFrame = { type: 'ask', id, questions: ask.questions, ...(title !== undefined ? { title } : {}) }
    this.#send(id, frame, askInFlight(ask, pending))
  }

  /** Sends an approval request (already checked with `ApprovalRequestSchema`); `pending` gets the decision. */
  approve(id: string, request: ApprovalRequest, title: string | undefined, pending: PendingApproval): void {
    const frame: AgentFrame = { type: 'approve', id, approval: request, ...(title !== undefined ? { title } : {}) }
    this.#send(id, frame, approvalInFlight(request, pending))
  }

  /** Sends a notice; true when it went out (the companion replies only to refuse it). */
  notice(notice: Notice, title: string | undefined): boolean {
    const frame: AgentFrame = { type: 'notice', notice, ...(title !== undefined ? { title } : {}) }
    return !this.#closed && this.#transport.send(JSON.stringify(frame))
  }

  #send(id: string, frame: AgentFrame, inFlight: InFlight): void {
    const text = JSON.stringify(frame) // throws on what JSON cannot carry, before anything is pending
    this.#pending.set(id, inFlight)
    if (this.#closed || !this.#transport.send(text)) {
      this.#pending.delete(id)
      inFlight.reject(
        new AskAbortedError('connection-lost', 'the Ask User Companion went away before the ask was sent'),
      )
    }
  }

  /** Withdraws a pending ask: forgets it and tells the companion (`cancel`). No-op when not pending. */
  cancel(id: string): void {
    if (!this.#pending.delete(id)) return
    this.#transport.send(JSON.stringify({ type: 'cancel', id } satisfies AgentFrame))
  }

  /** Closes the transport (pending asks fail with `ASK_ABORTED`); resolves once it is closed. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve()
    return new Promise((resolve) => {
      this.#closedWaiters.push(resolve)
      this.#transport.close(CloseCode.NORMAL_CLOSURE, 'client closed')
    })
  }

  #receive(frame: CompanionFrame | undefined): void {
    if (frame === undefined) {
      // An unreadable frame may have been the answer to any pending ask: never guess, give up.
      this.#transport.close(CloseCode.PROTOCOL_ERROR, 'invalid frame')
      return
    }
    if (frame.type === 'welcome' || frame.id === undefined) return
    const inFlight = this.#pending.get(frame.id)
    if (inFlight === undefined) return // e.g. NOT_PENDING after our own cancel
    this.#pending.delete(frame.id)
    const pending = inFlight
    if (frame.type === 'answer' || frame.type === 'decision') {
      inFlight.settle(frame)
    } else if (frame.type === 'cancelled') {
      pending.reject(new AskUserError('ASK_CANCELLED', frame.message || ASK_CANCELLED_MESSAGE))
    } else if (frame.code === 'ASK_ABORTED') {
      pending.reject(new AskAbortedError('connection-lost', `the Ask User Companion went away: ${frame.message}`))
    } else {
      pending.reject(new AskUserError(frame.code, frame.message))
    }
  }

  #failAll(code: number, reason: string): void {
    if (this.#closed) return
    this.#closed = true
    const why = reason === '' ? `code ${code}` : `code ${code}, ${reason}`
    const inFlight = [...this.#pending.values()]
    this.#pending.clear()
    for (const pending of inFlight) {
      pending.reject(
        new AskAbortedError(
          'connection-lost',
          `the Ask User Companion went away before the person answered (connection closed: ${why}); no answer was given`,
        ),
      )
    }
    for (const resolve of this.#closedWaiters.splice(0)) resolve()
    this.#onClose?.()
  }
}
