import type { Ask, HistoryEntry } from '../shared/ask'
import type { ConnectInfo } from '../shared/connect'
import type { UiClientFrame, UiServerFrame } from '../shared/ui'
import type { NoticeBoard } from './notice-board'
import type { Registry, Settlement } from './registry'
import { parseWindowFrame, rejected } from './ui-frames'
import { errorMessage } from '../shared/describe-error'
import { hasSecret } from '../shared/question-extras'

/**
 * Delivers one frame to a window. `json` is the frame already serialized (computed once per
 * broadcast), for transports that send text; IPC transports use `frame`.
 */
export type WindowSend = (frame: UiServerFrame, json: string) => void

/** How a window is attached. */
export interface AttachOptions {
  /**
   * The window masks secret questions (default true: the Electron window by construction). A UI
   * socket declares it with `/v1/ui?secrets=masked`; one that does not is never sent a secret ask,
   * nor its settlement.
   */
  masksSecrets?: boolean
}

/** A connected window, whatever carries it (WebSocket or Electron IPC). */
export interface WindowSession {
  /**
   * A frame from the window, JSON-decoded but unchecked: this is where it is checked, once
   * (ui-frames.ts); malformed frames get `rejected INVALID_FRAME`.
   */
  receive(frame: unknown): void
  /** Detaches the window; it gets no more frames. Idempotent. */
  close(): void
}

/** What the hub needs besides the registry. */
export interface HubContext {
  registry: Registry
  history: (limit: number) => Promise<HistoryEntry[]>
  warn: (message: string) => void
  /** How agents on this machine run `ask-user`, sent with every snapshot ("Connect an agent"). */
  connect?: ConnectInfo
  /** The inbox's notices (absent: windows get none). */
  notices?: NoticeBoard
}

/** Default number of history entries a `history/get` without `limit` returns. */
export const DEFAULT_HISTORY_PAGE = 100

/**
 * The UI channel: the set of attached windows. Each gets a `snapshot` when it attaches, then every
 * `question/added` and `question/resolved`; its `answer`, `dismiss` and `history/get` frames are
 * checked and answered with `accepted` (with the outcome), `rejected` or `history`. State lives in the registry, so a
 * window that reloads loses nothing.
 */
export class WindowHub {
  /** Attached windows, each with whether it masks secret questions. */
  private readonly windows = new Map<WindowSend, boolean>()
  private readonly unsubscribe: Array<() => void>

  constructor(private readonly ctx: HubContext) {
    this.unsubscribe = [
      ctx.registry.onAdded((ask: Ask) => this.broadcast({ type: 'question/added', ask }, hasSecret(ask))),
      ctx.registry.onResolved((ask: Ask, settlement: Settlement) =>
        this.broadcast({ type: 'question/resolved', askId: ask.askId, outcome: settlement.outcome }, hasSecret(ask)),
      ),
      ...(ctx.notices
        ? [ctx.notices.onChange((change) => this.broadcast('added' in change ? { type: 'notice/added', notice: change.added } : { type: 'notice/removed', noticeId: change.removed }, false))]
        : []),
    ]
  }

  /** Number of attached windows. */
  get size(): number {
    return this.windows.size
  }

  /** Attaches a window: sends it a snapshot at once, then every broadcast, until `close()`. */
  attach(send: WindowSend, options: AttachOptions = {}): WindowSession {
    const masks = options.masksSecrets ?? true
    const deliver = (frame: UiServerFrame): void => this.deliver(send, frame, JSON.stringify(frame))
    const notices = this.ctx.notices?.list() ?? []
    deliver({
      type: 'snapshot',
      pending: this.ctx.registry.pending().filter((ask) => masks || !hasSecret(ask)),
      ...(this.ctx.connect ? { connect: this.ctx.connect } : {}),
      ...(notices.length > 0 ? { notices } : {}),
    })
    this.windows.set(send, masks) // only once the snapshot went out: a window that failed it gets nothing else
    let open = true
    return {
      receive: (frame) => {
        if (open) this.handle(frame, deliver)
      },
      close: () => {
        open = false
        this.windows.delete(send)
      },
    }
  }

  /** Stops listening to the registry and forgets every window. */
  dispose(): void {
    for (const off of this.unsubscribe) off()
    this.windows.clear()
  }

  /** Sends `frame` to every window; a frame about a secret ask only to windows that mask. */
  private broadcast(frame: UiServerFrame, secret: boolean): void {
    if (this.windows.size === 0) return
    const json = JSON.stringify(frame)
    for (const [send, masks] of this.windows) if (masks || !secret) this.deliver(send, frame, json)
  }

  private deliver(send: WindowSend, frame: UiServerFrame, json: string): void {
    try {
      send(frame, json)
    } catch (error) {
      this.ctx.warn(`sending to a window failed: ${errorMessage(error)}`)
    }
  }

  private handle(value: unknown, reply: (frame: UiServerFrame) => void): void {
    try {
      const checked = parseWindowFrame(value)
      if (!checked.ok) return reply(checked.rejected)
      this.dispatch(checked.frame, reply)
    } catch (error) {
      this.ctx.warn(`window frame handler failed: ${errorMessage(error)}`)
    }
  }

  private dispatch(frame: UiClientFrame, reply: (frame: UiServerFrame) => void): void {
    switch (frame.type) {
      case 'answer': {
        const result = this.ctx.registry.answer(frame.askId, frame.answers)
        if (!result.ok) return reply(rejected(frame.askId, result.code, result.reason))
        return reply({ type: 'accepted', askId: frame.askId, outcome: 'answered', ...(result.delivered ? {} : { undelivered: true as const }) })
      }
      case 'decide': {
        const result = this.ctx.registry.decide(frame.askId, frame.decision)
        if (!result.ok) return reply(rejected(frame.askId, result.code, result.reason))
        return reply({ type: 'accepted', askId: frame.askId, outcome: 'answered', ...(result.delivered ? {} : { undelivered: true as const }) })
      }
      case 'dismiss': {
        const result = this.ctx.registry.dismiss(frame.askId)
        return reply(result.ok ? { type: 'accepted', askId: frame.askId, outcome: 'cancelled' } : rejected(frame.askId, result.code, result.reason))
      }
      case 'notice/dismiss':
        if (!this.ctx.notices?.remove(frame.noticeId)) reply(rejected(frame.noticeId, 'NOT_PENDING', `notice ${frame.noticeId} is not in the inbox (already cleared or unknown)`))
        return
      case 'history/get':
        this.ctx.history(frame.limit ?? DEFAULT_HISTORY_PAGE).then(
          (entries) => reply({ type: 'history', entries }),
          (error: unknown) => {
            this.ctx.warn(`reading history failed: ${errorMessage(error)}`)
            reply({ type: 'history', entries: [] })
          },
        )
    }
  }
}
