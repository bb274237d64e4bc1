// Test helper: a scripted window over the UI channel (`/v1/ui`), as a script written against v1 would
// be (v1 is still served; tests of v2's own frames talk to the hub: test/unit/core/ui-channel.test.ts).
import { WebSocket } from 'ws'
import type { Answer } from '../../shared/answer'
import type { V1Ask as Ask } from '../../core/ask-v1'
import { WAIT_MS } from './waits'
import {
  UI_V1_SUBPROTOCOL as UI_SUBPROTOCOL,
  V1ServerFrameSchema as UiServerFrameSchema,
  type V1ClientFrame as UiClientFrame,
  type V1ServerFrame as UiServerFrame,
} from '../../core/ui-v1'

type FrameOf<T extends UiServerFrame['type']> = Extract<UiServerFrame, { type: T }>

export interface UiClient {
  socket: WebSocket
  /** The `snapshot` frame received on connect. */
  snapshot: FrameOf<'snapshot'>
  /** Every frame received so far, in order (the snapshot included). */
  frames: UiServerFrame[]
  /**
   * The first not-yet-consumed frame that matches `predicate` (frames already received count), consumed
   * on return; rejects after `timeoutMs` (default {@link WAIT_MS}) with the frames seen so far in the message.
   */
  nextFrame<T extends UiServerFrame = UiServerFrame>(
    predicate: (frame: UiServerFrame) => boolean,
    timeoutMs?: number,
  ): Promise<T>
  /** Waits for the next `question/added` frame (optionally matching `predicate`) and returns its ask. */
  nextAsk(predicate?: (ask: Ask) => boolean, timeoutMs?: number): Promise<Ask>
  /** Sends an `answer` frame and resolves with the `accepted` or `rejected` reply for that askId. */
  answer(askId: string, answers: Answer[]): Promise<FrameOf<'accepted'> | FrameOf<'rejected'>>
  /** Sends a `dismiss` frame and resolves with the `accepted` or `rejected` reply. */
  dismiss(askId: string): Promise<FrameOf<'accepted'> | FrameOf<'rejected'>>
  /** Sends a `decide` frame (an approval's decision) and resolves with the `accepted` or `rejected` reply. */
  decide(askId: string, decision: unknown): Promise<FrameOf<'accepted'> | FrameOf<'rejected'>>
  /** Sends any frame (or raw text) as is. */
  send(frame: UiClientFrame | string | object): void
  /**
   * Answers every ask (pending now and future) with `pick(ask)`; default: each question skipped
   * (`{id, selected: []}`). Returns a function that stops it.
   */
  autoAnswer(pick?: (ask: Ask) => Answer[]): () => void
  /** Closes the socket and waits for the close event. */
  close(): Promise<void>
}

export interface UiClientOptions {
  /** How the token is sent: a `token.<token>` subprotocol like the served page (default) or a bearer header. */
  auth?: 'subprotocol' | 'bearer'
  /** Extra headers, e.g. an `Origin`. */
  headers?: Record<string, string>
  timeoutMs?: number
}

/**
 * What a window connects with: a companion (its window credential) or an explicit URL and credential
 * (`token`: a window credential; the agent token is refused on `/v1/ui`).
 */
export type UiTarget = { uiUrl: string; windowCredential: () => string } | { uiUrl: string; token: string }

/** Connects a window to `target.uiUrl` with its window credential and waits for the snapshot. */
export async function connectUi(target: UiTarget, options: UiClientOptions = {}): Promise<UiClient> {
  const timeoutMs = options.timeoutMs ?? WAIT_MS
  const bearer = options.auth === 'bearer'
  const credential = 'windowCredential' in target ? target.windowCredential() : target.token
  const socket = new WebSocket(target.uiUrl, bearer ? [UI_SUBPROTOCOL] : [UI_SUBPROTOCOL, `token.${credential}`], {
    headers: { ...(bearer ? { Authorization: `Bearer ${credential}` } : {}), ...options.headers },
  })
  const frames: UiServerFrame[] = []
  const unconsumed: UiServerFrame[] = []
  const waiters = new Set<() => void>()
  socket.on('message', (data) => {
    const frame = UiServerFrameSchema.parse(JSON.parse(String(data)))
    frames.push(frame)
    unconsumed.push(frame)
    for (const wake of [...waiters]) wake()
  })
  socket.on('close', () => {
    for (const wake of [...waiters]) wake()
  })

  const nextFrame = <T extends UiServerFrame>(
    predicate: (frame: UiServerFrame) => boolean,
    ms = timeoutMs,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = (): boolean => {
        const index = unconsumed.findIndex(predicate)
        if (index === -1) return false
        const [frame] = unconsumed.splice(index, 1)
        done()
        resolve(frame as T)
        return true
      }
      const timer = setTimeout(() => {
        done()
        reject(
          new Error(`no matching UI frame within ${ms} ms; received: ${JSON.stringify(frames.map((f) => f.type))}`),
        )
      }, ms)
      const wake = (): void => {
        if (!check() && socket.readyState === WebSocket.CLOSED) {
          done()
          reject(new Error('the UI socket closed before a matching frame arrived'))
        }
      }
      const done = (): void => {
        clearTimeout(timer)
        waiters.delete(wake)
      }
      waiters.add(wake)
      wake()
    })

  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`UI upgrade refused with HTTP ${res.statusCode}`)),
    )
  })
  const snapshot = await nextFrame<FrameOf<'snapshot'>>((frame) => frame.type === 'snapshot')
  const send = (frame: UiClientFrame | string | object): void =>
    socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  const reply = (askId: string) =>
    nextFrame<FrameOf<'accepted'> | FrameOf<'rejected'>>(
      (frame) => (frame.type === 'accepted' || frame.type === 'rejected') && frame.askId === askId,
    )

  return {
    socket,
    snapshot,
    frames,
    nextFrame,
    nextAsk: async (predicate = () => true, ms) =>
      (
        await nextFrame<FrameOf<'question/added'>>(
          (frame) => frame.type === 'question/added' && predicate(frame.ask),
          ms,
        )
      ).ask,
    answer: (askId, answers) => {
      const result = reply(askId)
      send({ type: 'answer', askId, answers })
      return result
    },
    decide: (askId, decision) => {
      const result = reply(askId)
      send({ type: 'decide', askId, decision })
      return result
    },
    dismiss: (askId) => {
      const result = reply(askId)
      send({ type: 'dismiss', askId })
      return result
    },
    send,
    autoAnswer: (pick = (ask) => ask.questions.map((q) => ({ id: q.id, selected: [] }))) => {
      const answerAsk = (ask: Ask): void => send({ type: 'answer', askId: ask.askId, answers: pick(ask) })
      for (const ask of snapshot.pending) answerAsk(ask)
      const onMessage = (data: unknown): void => {
        const frame = JSON.parse(String(data)) as UiServerFrame
        if (frame.type === 'question/added') answerAsk(frame.ask)
      }
      socket.on('message', onMessage)
      return () => void socket.off('message', onMessage)
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve()
        socket.once('close', () => resolve())
        socket.close()
      }),
  }
}
