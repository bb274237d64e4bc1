import type { Answer } from './answer'
import type { ApprovalDecision } from './approval'
import type { PhonePairState, RelayChange, RelayChangeResult } from './ipc'
import type { UiClientFrame, UiServerFrame } from './ui'

/**
 * Connection state of a window's bridge to the companion. Only `open` means the window knows what is
 * pending. The served page adds: `unreachable` (its socket failed and the companion's port does not
 * answer HTTP either: it is retrying), `signed-out` (it holds no window credential: a reload, an
 * expired link; run `ask-user open`), `unverified` (what answers on the port does not hold this page's
 * credential: the companion restarted with a new one, or something else took the port; nothing it sent
 * is shown), `other-program` (the port answers HTTP, but not as the companion: another program took
 * it) and `alarm` (a page link was opened twice, so every window was signed out).
 */
export type BridgeStatus =
  | 'connecting'
  | 'open'
  | 'closed'
  | 'unreachable'
  | 'signed-out'
  | 'unverified'
  | 'other-program'
  | 'alarm'
  /** The phone's relay refused it for good (phone/src/bridge/phone-refusals.ts): a notice says why; it stops dialling. */
  | 'refused'

/** How the served page is getting its window credential (shown until it has one). */
export type PageAccessState =
  { kind: 'none' } | { kind: 'redeeming' } | { kind: 'confirm'; digits: string } | { kind: 'refused'; message: string }

/**
 * What the question window needs from its host, whoever carries it: the Electron preload (IPC) or the
 * WebSocket UI channel of `ask-user serve`. Declared here so that the renderer never imports the
 * preload (which would drag Electron and Node types into the browser build); the preload object
 * `satisfies CompanionBridge`.
 *
 * Contract: the first `onFrame` listener triggers delivery of a `snapshot` frame (and a new snapshot
 * after every reconnect); every later state change arrives as `ask/*`, `notice/*` or `history`
 * frames (UI channel v2, shared/ui.ts). Calls made while the host is unreachable are dropped and the status says so.
 */
export interface CompanionBridge {
  /** Submits the person's answers to a pending question ask; the reply is `ask/accepted` or `ask/rejected`. */
  answer(askId: string, answers: Answer[]): void
  /** Sends the person's decision on a pending approval; the reply is `ask/accepted` or `ask/rejected`. */
  decide(askId: string, decision: ApprovalDecision): void
  /** Clears a notice from every window; the reply is the broadcast `notice/removed`. */
  dismissNotice(noticeId: string): void
  /** Dismisses a pending ask (the agent gets `ASK_CANCELLED`); the reply is `ask/accepted` or `ask/rejected`. */
  dismiss(askId: string): void
  /**
   * Asks for one page of settled asks, newest first (`before`: the page after that askId); the reply
   * is one `history` frame, whose `more` says whether older entries follow.
   */
  requestHistory(limit?: number, before?: string): void
  /** Subscribes to frames from the companion; returns the unsubscribe function. */
  onFrame(listener: (frame: UiServerFrame) => void): () => void
  /**
   * Optional: tells the host which ask the window shows (`undefined`: none). The desktop app uses it
   * to skip notifications about the agent the person is looking at.
   */
  reportShown?(askId: string | undefined): void
  /** Optional (served page only): subscribes to the sign-in state (called at once with the current one). */
  onAccess?(listener: (state: PageAccessState) => void): () => void
  /** Subscribes to connection status changes (called at once with the current status). */
  onStatus(listener: (status: BridgeStatus) => void): () => void
  /**
   * Optional: subscribes to requests to bring one pending ask into view (the person clicked it in the
   * tray menu or a notification). Only the Electron preload has it; a request made before the first
   * listener subscribes is delivered to that listener. Returns the unsubscribe function.
   */
  onFocusAsk?(listener: (askId: string) => void): () => void
  /**
   * Optional: opens a link from agent text outside the app. Only the Electron preload has it: main
   * checks the URL again (absolute http/https) and asks the person in a native dialog that shows the
   * full URL before the system browser opens it. Without it, the page confirms and opens a new tab.
   */
  openLink?(url: string): void
  /**
   * Optional: pairing a phone ("Add a phone"). Only the Electron preload has it (its privileged IPC): a
   * served page cannot pair, and the UI channel refuses every pairing frame.
   */
  phonePairing?: PhonePairingCalls
  /**
   * Optional: changes the relay (the Relay view's switch, remote passwords, "Remove"). Only the Electron
   * preload has it: main applies the change as `ask-user relay …` would and resolves how it ended; the
   * view shows the change from the next `relay/state`. The served page has no way to change the relay.
   */
  changeRelay?(change: RelayChange): Promise<RelayChangeResult>
}

/** The desktop window's calls for pairing a phone (see `PhonePairState` in shared/ipc.ts). */
export interface PhonePairingCalls {
  /** Starts a pairing; the states follow through {@link PhonePairingCalls.onState}. */
  start(): void
  /** The person's decision on pairing `pairId`: confirm, or decline (also cancels a pairing still waiting). */
  decide(pairId: string, confirm: boolean): void
  /** Subscribes to the pairing's states; returns the unsubscribe function. */
  onState(listener: (state: PhonePairState) => void): () => void
}

/** The calls of a bridge that each send one frame to the companion. */
export type FrameCalls = Pick<CompanionBridge, 'answer' | 'decide' | 'dismiss' | 'dismissNotice' | 'requestHistory'>

/**
 * The frame-sending calls of a bridge over `send`, whatever carries the frames (the preload's IPC, the
 * page's WebSocket): each call builds its one v2 frame. Pure; no zod at run time (the preload stays lean).
 */
export function frameCalls(send: (frame: UiClientFrame) => void): FrameCalls {
  return {
    answer: (askId, answers) => send({ type: 'ask/answer', askId, answers }),
    decide: (askId, decision) => send({ type: 'ask/decide', askId, decision }),
    dismiss: (askId) => send({ type: 'ask/dismiss', askId }),
    dismissNotice: (noticeId) => send({ type: 'notice/dismiss', noticeId }),
    requestHistory: (limit, before) =>
      send({
        type: 'history/get',
        ...(limit === undefined ? {} : { limit }),
        ...(before === undefined ? {} : { before }),
      }),
  }
}
