import type { Ask } from '../shared/ask'
import type { HistoryPage, HistoryPageRequest } from './history'
import type { ConnectInfo } from '../shared/connect'
import type { UiClientFrame, UiServerFrame } from '../shared/ui'
import type { NoticeBoard } from './notice-board'
import type { RelayStateBoard } from './relay-bridge/relay-state'
import type { AnswerOutcome, Registry, Settlement } from './registry'
import { rejected } from './ui-frames'
import { errorMessage } from '../shared/describe-error'
import { hasSecret } from '../shared/question-extras'
import { askJson } from './ask-json'
import { addedJson, SNAPSHOT_BYTES, SnapshotBacklog, takeBounded, type SerializedAsk } from './snapshot-pager'

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
  /**
   * Calls `resume` once the window has read what it was sent (its transport's buffer drained); the
   * rest of a large inbox is sent a bounded chunk at a time, each after this (default: the next turn
   * of the event loop, for transports without back-pressure such as Electron IPC).
   */
  whenWritable?: (resume: () => void) => void
  /**
   * Called once when handling one of the window's frames threw (a fault of ours, not the window's):
   * the session is closed by then; the transport ends the window's connection (UI socket: close 1011)
   * or attaches it again (Electron). Default: the session is only closed.
   */
  onFault?: (error: unknown) => void
}

/** What the hub keeps per attached window. */
interface AttachedWindow {
  masks: boolean
  /** The part of the inbox its snapshot did not carry, still being sent (absent once sent). */
  backlog?: SnapshotBacklog
}

/** A connected window, whatever carries it (WebSocket or Electron IPC). */
export interface WindowSession {
  /**
   * A frame from the window, already checked once at its transport's edge (ui-frames.ts
   * `parseWindowFrame`: the UI socket in core/sockets.ts, Electron IPC in electron/main/ipc-hub.ts).
   */
  receive(frame: UiClientFrame): void
  /** Detaches the window; it gets no more frames. Idempotent. */
  close(): void
}

/** What the hub needs besides the registry. */
export interface HubContext {
  registry: Registry
  /** One page of the history for a `history/get` (core/history.ts bounds it in entries and bytes). */
  history: (request: HistoryPageRequest) => Promise<HistoryPage>
  warn: (message: string) => void
  /** How agents on this machine run `ask-user`, sent with every snapshot ("Connect an agent"). */
  connect?: ConnectInfo
  /** The inbox's notices (absent: windows get none). */
  notices?: NoticeBoard
  /** The relay's state for the "Relay" view (sent only once a relay is configured). */
  relayState?: RelayStateBoard
  /** Bound of one snapshot frame and of each later chunk, in bytes (default {@link SNAPSHOT_BYTES}). */
  snapshotBytes?: number
}

/** Default number of history entries a `history/get` without `limit` returns. */
export const DEFAULT_HISTORY_PAGE = 100

/**
 * The UI channel (v2 frames; a v1 window's edge translates, see ui-v1.ts): the set of attached windows.
 * Each gets a `snapshot` when it attaches (and `relay/state` when a relay is configured), then every `ask/added`,
 * `ask/settled`, notice change and relay state change;
 * its `ask/answer`, `ask/decide`, `ask/dismiss`, `notice/dismiss` and `history/get` frames are answered
 * with `ask/accepted` (with the outcome), `ask/rejected` or `history`. State lives in the registry, so
 * a window that reloads loses nothing.
 */
export class WindowHub {
  /** Attached windows, each with whether it masks secret questions. */
  private readonly windows = new Map<WindowSend, AttachedWindow>()
  private readonly unsubscribe: Array<() => void>

  constructor(private readonly ctx: HubContext) {
    this.unsubscribe = [
      ctx.registry.onAdded((ask: Ask) => this.broadcast({ type: 'ask/added', ask }, hasSecret(ask), ask)),
      ctx.registry.onOriginChanged((ask) =>
        this.broadcast(
          { type: 'ask/origin', askId: ask.askId, origin: ask.origin! },
          hasSecret(ask),
          undefined,
          undefined,
          ask,
        ),
      ),
      ctx.registry.onResolved((ask: Ask, settlement: Settlement) =>
        this.broadcast(settledFrame(ask.askId, settlement), hasSecret(ask), undefined, ask.askId),
      ),
      ...(ctx.notices
        ? [
            ctx.notices.onChange((change) =>
              this.broadcast(
                'added' in change
                  ? { type: 'notice/added', notice: change.added }
                  : { type: 'notice/removed', noticeId: change.removed },
                false,
              ),
            ),
          ]
        : []),
      ...(ctx.relayState
        ? [ctx.relayState.onChange((state) => this.broadcast({ type: 'relay/state', state }, false))]
        : []),
    ]
  }

  /** Number of attached windows. */
  get size(): number {
    return this.windows.size
  }

  /**
   * Attaches a window: sends it a snapshot at once, then every broadcast, until `close()`. The
   * snapshot carries the oldest pending asks up to the size bound (or one ask when that one is
   * larger); the rest follow as `ask/added` frames in order, a bounded chunk each time the
   * window has read the last (see `whenWritable`), so no window is cut off by its own snapshot.
   */
  attach(send: WindowSend, options: AttachOptions = {}): WindowSession {
    const masks = options.masksSecrets ?? true
    const bound = this.ctx.snapshotBytes ?? SNAPSHOT_BYTES
    const deliver = (frame: UiServerFrame): void => this.deliver(send, frame, JSON.stringify(frame))
    const notices = this.ctx.notices?.list() ?? []
    const pending = this.ctx.registry.pending().filter((ask) => masks || !hasSecret(ask))
    const first: SerializedAsk[] = []
    const end = takeBounded(pending, 0, bound, first)
    const restUntil = end < pending.length ? pending[pending.length - 1]!.receivedAt : undefined
    const frame: UiServerFrame = {
      type: 'snapshot',
      pending: first.map((item) => item.ask),
      ...(this.ctx.connect ? { connect: this.ctx.connect } : {}),
      ...(notices.length > 0 ? { notices } : {}),
      ...(restUntil !== undefined ? { restUntil } : {}),
    }
    // The same text as JSON.stringify(frame), without serializing the asks a second time.
    const tail = JSON.stringify({
      ...(frame.connect ? { connect: frame.connect } : {}),
      ...(frame.notices ? { notices: frame.notices } : {}),
      ...(restUntil !== undefined ? { restUntil } : {}),
    })
    const json = `{"type":"snapshot","pending":[${first.map((item) => item.json).join(',')}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`
    this.deliver(send, frame, json)
    const relay = this.ctx.relayState?.current()
    if (relay) deliver({ type: 'relay/state', state: relay })
    const state: AttachedWindow = { masks }
    if (end < pending.length) state.backlog = new SnapshotBacklog(pending.slice(end))
    this.windows.set(send, state) // only once the snapshot went out: a window that failed it gets nothing else
    let open = true
    const whenWritable = options.whenWritable ?? ((resume: () => void) => void setImmediate(resume))
    const pump = (): void => {
      const backlog = state.backlog
      if (!open || !backlog) return
      for (const item of backlog.next(bound))
        this.deliver(send, { type: 'ask/added', ask: item.ask }, addedJson(item.json))
      if (backlog.done) state.backlog = undefined
      else whenWritable(pump)
    }
    if (state.backlog) whenWritable(pump)
    const close = (): void => {
      open = false
      this.windows.delete(send)
    }
    // Whatever threw while handling this window's frame ends this window only: every other window,
    // agent and pending ask goes on (a rejection left unhandled would end the process).
    const fault = (error: unknown): void => {
      if (!open) return
      close()
      this.ctx.warn(`a window's frame handler failed; the window is disconnected: ${errorMessage(error)}`)
      try {
        options.onFault?.(error)
      } catch (failure) {
        this.ctx.warn(`disconnecting a failed window failed: ${errorMessage(failure)}`)
      }
    }
    return {
      receive: (frame) => {
        if (!open) return
        try {
          this.dispatch(frame, deliver, fault)
        } catch (error) {
          fault(error)
        }
      },
      close,
    }
  }

  /** Stops listening to the registry and forgets every window. */
  dispose(): void {
    for (const off of this.unsubscribe) off()
    this.windows.clear()
  }

  /** Sends `frame` to every window; a frame about a secret ask only to windows that mask. */
  private broadcast(frame: UiServerFrame, secret: boolean, added?: Ask, resolvedId?: string, changed?: Ask): void {
    if (this.windows.size === 0) return
    let json: string | undefined
    for (const [send, state] of this.windows) {
      if (!state.masks && secret) continue
      // A window still receiving the rest of its inbox: a new ask queues behind it; the settlement of
      // an ask it was not sent yet is dropped with the ask.
      if (state.backlog && added) {
        state.backlog.push(added)
        continue
      }
      if (state.backlog && resolvedId !== undefined && state.backlog.drop(resolvedId)) continue
      // A changed ask the window was not sent yet goes out as it is now, with the rest.
      if (state.backlog && changed && state.backlog.replace(changed)) continue
      this.deliver(send, frame, (json ??= added ? addedJson(askJson(added)) : JSON.stringify(frame)))
    }
  }

  private deliver(send: WindowSend, frame: UiServerFrame, json: string): void {
    try {
      send(frame, json)
    } catch (error) {
      this.ctx.warn(`sending to a window failed: ${errorMessage(error)}`)
    }
  }

  private dispatch(frame: UiClientFrame, reply: (frame: UiServerFrame) => void, fault: (error: unknown) => void): void {
    switch (frame.type) {
      case 'ask/answer': {
        const answered = (result: AnswerOutcome): void => {
          if (!result.ok) return reply(rejected(frame.askId, result.code, result.message))
          reply({
            type: 'ask/accepted',
            askId: frame.askId,
            outcome: 'answered',
            ...(result.delivered ? {} : { undelivered: true as const }),
          })
        }
        const result = this.ctx.registry.answer(frame.askId, frame.answers)
        // A remote ask's answer travels to the relay first (core/relay-bridge); the reply follows its outcome.
        if (result instanceof Promise) result.then(answered).catch(fault)
        else answered(result)
        return
      }
      case 'ask/decide': {
        const decided = (result: AnswerOutcome): void => {
          if (!result.ok) return reply(rejected(frame.askId, result.code, result.message))
          reply({
            type: 'ask/accepted',
            askId: frame.askId,
            outcome: 'decided',
            ...(result.delivered ? {} : { undelivered: true as const }),
          })
        }
        const result = this.ctx.registry.decide(frame.askId, frame.decision)
        // A mirrored approval's decision claims the relay first (core/relay-bridge/mirror.ts).
        if (result instanceof Promise) result.then(decided).catch(fault)
        else decided(result)
        return
      }
      case 'ask/dismiss': {
        const result = this.ctx.registry.dismiss(frame.askId)
        return reply(
          result.ok
            ? { type: 'ask/accepted', askId: frame.askId, outcome: 'cancelled' }
            : rejected(frame.askId, result.code, result.message),
        )
      }
      case 'notice/dismiss':
        if (!this.ctx.notices?.remove(frame.noticeId))
          reply(
            rejected(
              frame.noticeId,
              'NOT_PENDING',
              `notice ${frame.noticeId} is not in the inbox (already cleared or unknown)`,
            ),
          )
        return
      case 'history/get': {
        const request: HistoryPageRequest = { limit: frame.limit ?? DEFAULT_HISTORY_PAGE }
        if (frame.before !== undefined) request.before = frame.before
        this.ctx
          .history(request)
          .then(
            (page) => reply({ type: 'history', entries: page.entries, more: page.more }),
            (error: unknown) => {
              this.ctx.warn(`reading history failed: ${errorMessage(error)}`)
              reply({ type: 'history', entries: [], more: false })
            },
          )
          .catch(fault)
      }
    }
  }
}

/** The `ask/settled` frame of a settlement: a decided approval carries the decision. */
function settledFrame(askId: string, settlement: Settlement): UiServerFrame {
  return {
    type: 'ask/settled',
    askId,
    outcome: settlement.outcome,
    ...(settlement.outcome === 'decided' ? { decision: settlement.decision } : {}),
    ...((settlement.outcome === 'answered' || settlement.outcome === 'decided') && settlement.answeredOn !== undefined
      ? { answeredOn: settlement.answeredOn }
      : {}),
  }
}
