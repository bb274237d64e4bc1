// What the registry (registry.ts) promises the rest of the core: how an ask settles, who is told (its
// owner, the listeners), what a new ask hands over, and the refusals a window's reply can get, in the
// words the windows show.
import type { Answer } from '../shared/answer'
import type { ApprovalDecision, ApprovalRequest } from '../shared/approval'
import type { AgentInfo, Ask, AskOrigin, AskpassMark, QuestionAsk } from '../shared/ask'
import type { Refusal as SharedRefusal } from '../shared/error-codes'
import type { AskQuestion } from '../shared/question-extras'

/**
 * How an ask ended, with what its owner needs to tell the agent: a question ask is `answered` with
 * the person's answers, an approval `decided` with the person's decision.
 */
export type Settlement =
  /** `answeredOn`: a remote ask answered on another desk (its answers are sealed to the agent, unknown here). */
  | { outcome: 'answered'; answers: Answer[]; answeredOn?: string }
  /** `answeredOn`: a mirrored approval decided on another desk (core/relay-bridge/mirror.ts). */
  | { outcome: 'decided'; decision: ApprovalDecision; answeredOn?: string }
  /**
   * Another desktop's mirrored approval decided on a third device: the decision is sealed to the desktop
   * that mirrors it, unknown here; only who decided is known (when the receipt names them).
   */
  | { outcome: 'decided'; decision?: undefined; answeredOn?: string }
  | { outcome: 'cancelled' }
  | { outcome: 'aborted'; by: 'agent' | 'shutdown' | 'fault' }
  | { outcome: 'agent-gone' }
  | { outcome: 'expired' }

/** The agent side of an ask: told exactly once how it ended. */
export interface AskOwner {
  /** Returns false when the outcome could not be sent (the agent's socket is already closing). */
  settled(wireId: string, settlement: Settlement): boolean
  /**
   * Set by an owner whose answers travel before the ask settles (a remote ask: core/relay-bridge).
   * Given the checked, canonical answers; resolves with how the ask settles, or with a refusal (the
   * ask stays pending). The registry settles it itself, so `settled` is then told nothing more.
   */
  submit?(wireId: string, answers: Answer[]): Promise<Settlement | Refusal>
}

/** Why a window's answer, decision or dismissal was refused (shared/error-codes.ts's one refusal shape). */
export type Refusal = SharedRefusal<'NOT_PENDING' | 'INVALID_ANSWER' | 'FORBIDDEN'>

/** What {@link Registry.answer} resolves with: settled (and whether the agent was told), or refused. */
export type AnswerOutcome = { ok: true; delivered: boolean } | Refusal

/** What {@link Registry.decide} resolves with: the same shape as an answer's outcome. */
export type DecideOutcome = AnswerOutcome

/**
 * Why a reply of the wrong kind is refused with `INVALID_ANSWER` (the ask is pending; the frame sent
 * for it is not the kind it takes), saying which frame to send instead. A v1 window reads v1's wording
 * (core/ui-v1.ts).
 */
export const WRONG_KIND_REASON = {
  answer: 'this ask is an approval: send ask/decide with a decision (allow or deny), not answers',
  decide: 'this ask has questions: send ask/answer with answers, not a decision',
} as const

/**
 * A listener for settled asks (history, windows, the Electron tray); `delivered` is false when the
 * outcome could not be sent to the agent (its socket was closing).
 */
export type ResolvedListener = (ask: Ask, settlement: Settlement, settledAt: number, delivered: boolean) => void

/** A listener for an answer that came too late: its agent had gone (kept in history as undelivered). */
export type UndeliveredListener = (ask: QuestionAsk, answers: Answer[], at: number) => void

/**
 * Why "always allow" is refused on another desktop's mirrored approval: it would change the permission
 * rules of the machine that mirrors it, so only that machine's windows offer it.
 */
export const ALWAYS_NOT_REMOTE_REASON =
  '"always allow" is decided only on the machine whose permissions it changes; allow once or deny here'

/** Why a remote ask cannot be dismissed: a desk has no way to cancel an agent's ask on the relay. */
export const REMOTE_DISMISS_REASON =
  'a remote ask cannot be dismissed here: its agent would keep waiting. Answer it, or let it expire.'

/** What the person is told when their answer arrives just after the agent disconnected. */
export const AGENT_GONE_REASON =
  'the agent disconnected before your answer reached it; the answer is kept in history as undelivered'

/**
 * Sends a window's checked, canonical answers somewhere before a local ask settles (the relay mirror
 * claiming the answer key of the ask it mirrors). Resolves with how the ask settles, or with a refusal
 * (the ask stays pending).
 */
export type SubmitFirst = (answers: Answer[]) => Promise<Settlement | Refusal>

/**
 * Sends a window's checked decision on a local approval somewhere before it settles (the relay mirror
 * claiming the answer key of the approval it mirrors), as {@link SubmitFirst} does for answers.
 */
export type DecideFirst = (decision: ApprovalDecision) => Promise<Settlement | Refusal>

/**
 * The refusal of a window's answer when another desk's answer took the ask first (the same words for a
 * remote ask and for a mirrored local ask).
 */
export function answeredElsewhere(desk: string): Refusal {
  return { ok: false, code: 'NOT_PENDING', message: `answered on ${desk} first; your answer was not sent` }
}

/** The refusal of a window's decision when another desk decided the (mirrored) approval first. */
export function decidedElsewhere(desk: string): Refusal {
  return { ok: false, code: 'NOT_PENDING', message: `decided on ${desk} first; your decision was not sent` }
}

/** What an agent connection hands over to register an ask: a question ask or an approval. */
export type NewAsk = { agent: AgentInfo; title?: string; wireId: string; owner: AskOwner } & (
  | {
      kind: 'question'
      questions: AskQuestion[]
      /** The companion's own finding that the ask comes from its askpass helper (never from the agent's frame). */
      askpass?: AskpassMark
      /** Set by the relay bridge alone: the ask came through the relay. */
      origin?: AskOrigin
    }
  | {
      kind: 'approval'
      approval: ApprovalRequest
      /** Set by the relay bridge alone: another desktop's approval, mirrored through the relay. */
      origin?: AskOrigin
    }
)

/** The refusal of a reply to `askId` when no such ask is pending (already settled, or never known). */
export function notPending(askId: string): Refusal {
  return { ok: false, code: 'NOT_PENDING', message: `ask ${askId} is not pending (already settled or unknown)` }
}
