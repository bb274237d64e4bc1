import WebSocket from 'ws'
import type { AskAnswer } from '../shared/answer'
import { checkAnswer } from '../shared/answer-rules'
import { ASK_CANCELLED_MESSAGE, AskUserError } from '../shared/error-codes'
import type { Question } from '../shared/tool-input'
import {
  AGENT_SUBPROTOCOL,
  CompanionFrameSchema,
  PROTOCOL_VERSION,
  type AgentFrame,
  type ClientInfo,
  type CompanionFrame,
} from '../shared/wire'
import type { Endpoint } from './discovery'
import { AskAbortedError, noCompanion } from './errors'

/** Settles one ask waiting on a connection. */
export interface PendingAsk {
  questions: readonly Question[]
  resolve(answer: AskAnswer): void
  reject(error: AskUserError): void
}

function parseFrame(data: WebSocket.RawData, isBinary: boolean): CompanionFrame | undefined {
  if (isBinary) return undefined
  try {
    const parsed = CompanionFrameSchema.safeParse(JSON.parse(data.toString()))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * One open, greeted WebSocket to the companion's agent endpoint carrying any number of asks. When the
 * socket closes (for whatever reason) every ask still pending fails once with `ASK_ABORTED`
 * (reason `connection-lost`), in one place: {@link Connection.#failAll}.
 */
export class Connection {
  readonly #socket: WebSocket
  readonly #pending = new Map<string, PendingAsk>()
  #closed = false
  #onClose: (() => void) | undefined

  private constructor(socket: WebSocket) {
    this.#socket = socket
    socket.on('message', (data, isBinary) => this.#receive(parseFrame(data, isBinary)))
    socket.on('close', (code, reason) => this.#failAll(code, reason.toString()))
    socket.on('error', () => {
      /* 'close' follows and fails what is pending */
    })
  }

  /**
   * Opens the socket, sends `hello` and waits for `welcome`. Fails with `NO_PROVIDER` (message says how
   * to start the companion) when the endpoint cannot be reached, refuses us, or does not greet us
   * within `timeoutMs`.
   */
  static open(endpoint: Endpoint, client: ClientInfo, timeoutMs: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(endpoint.url, AGENT_SUBPROTOCOL, {
        headers: { Authorization: `Bearer ${endpoint.token}` },
        perMessageDeflate: false,
        handshakeTimeout: timeoutMs,
        followRedirects: false,
      })
      let done = false
      const fail = (why: string, cause?: unknown): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        socket.removeAllListeners()
        socket.on('error', () => undefined)
        socket.terminate()
        reject(noCompanion(`cannot reach the Ask User Companion at ${endpoint.url} (${why})`, cause))
      }
      const timer = setTimeout(() => fail(`no welcome within ${timeoutMs} ms`), timeoutMs)
      socket.once('unexpected-response', (_req, res) => {
        const hint = res.statusCode === 401 ? '; the token may be stale' : ''
        fail(`it answered HTTP ${res.statusCode ?? '?'}${hint}`)
      })
      socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message, error))
      socket.once('close', (code) => fail(`connection closed with code ${code} before the welcome`))
      socket.once('open', () => {
        if (socket.protocol !== AGENT_SUBPROTOCOL) return fail(`it did not accept subprotocol ${AGENT_SUBPROTOCOL}`)
        const hello: AgentFrame = { type: 'hello', protocol: PROTOCOL_VERSION, client }
        socket.send(JSON.stringify(hello))
      })
      socket.once('message', (data, isBinary) => {
        const frame = parseFrame(data, isBinary)
        if (frame?.type === 'welcome') {
          done = true
          clearTimeout(timer)
          socket.removeAllListeners()
          resolve(new Connection(socket))
        } else if (frame?.type === 'error') fail(`${frame.code}: ${frame.message}`)
        else fail('the first frame was not a welcome')
      })
    })
  }

  /** True until the socket closes; a closed connection is never reused. */
  get isOpen(): boolean {
    return !this.#closed && this.#socket.readyState === WebSocket.OPEN
  }

  /** Number of asks waiting on this connection. */
  get pendingCount(): number {
    return this.#pending.size
  }

  /** Called once when the socket has closed and every pending ask has been failed. */
  onClose(listener: () => void): void {
    this.#onClose = listener
  }

  /** Sends an ask with the client-minted `id`; `pending` is settled by the companion's reply or the close. */
  ask(id: string, questions: Question[], title: string | undefined, pending: PendingAsk): void {
    if (!this.isOpen) {
      pending.reject(new AskAbortedError('connection-lost', 'the Ask User Companion went away before the ask was sent'))
      return
    }
    this.#pending.set(id, pending)
    const frame: AgentFrame = { type: 'ask', id, questions, ...(title !== undefined ? { title } : {}) }
    this.#socket.send(JSON.stringify(frame))
  }

  /** Withdraws a pending ask: forgets it and tells the companion (`cancel`). No-op when not pending. */
  cancel(id: string): void {
    if (!this.#pending.delete(id)) return
    if (this.isOpen) this.#socket.send(JSON.stringify({ type: 'cancel', id } satisfies AgentFrame))
  }

  /** Closes the socket (pending asks fail with `ASK_ABORTED`); resolves once it is closed. */
  close(): Promise<void> {
    if (this.#socket.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      this.#socket.once('close', () => resolve())
      this.#socket.close(1000, 'client closed')
    })
  }

  #receive(frame: CompanionFrame | undefined): void {
    if (frame === undefined) {
      // An unreadable frame may have been the answer to any pending ask: never guess, give up.
      this.#socket.close(1002, 'invalid frame')
      return
    }
    if (frame.type === 'welcome' || frame.id === undefined) return
    const pending = this.#pending.get(frame.id)
    if (pending === undefined) return // e.g. NOT_PENDING after our own cancel
    this.#pending.delete(frame.id)
    if (frame.type === 'answer') {
      const answer: AskAnswer = { answers: frame.answers }
      const violations = checkAnswer(pending.questions, answer)
      if (violations.length === 0) pending.resolve(answer)
      else {
        pending.reject(
          new AskUserError(
            'INVALID_ANSWER',
            `the companion sent an answer that breaks the answer rules: ${violations.map((v) => v.message).join('; ')}`,
          ),
        )
      }
    } else if (frame.type === 'cancelled') {
      pending.reject(new AskUserError('ASK_CANCELLED', frame.message || ASK_CANCELLED_MESSAGE))
    } else if (frame.code === 'SHUTTING_DOWN' || frame.code === 'ASK_ABORTED') {
      pending.reject(new AskAbortedError('connection-lost', `the Ask User Companion went away: ${frame.message}`))
    } else {
      pending.reject(new AskUserError(frame.code, frame.message))
    }
  }

  #failAll(code: number, reason: string): void {
    if (this.#closed) return
    this.#closed = true
    const why = reason === '' ? `code ${code}` : `code ${code}, ${reason}`
    const pending = [...this.#pending.values()]
    this.#pending.clear()
    for (const ask of pending) {
      ask.reject(
        new AskAbortedError(
          'connection-lost',
          `the Ask User Companion went away before the person answered (connection closed: ${why}); no answer was given`,
        ),
      )
    }
    this.#onClose?.()
  }
}
