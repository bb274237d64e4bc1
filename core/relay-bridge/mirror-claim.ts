// First answer wins everywhere, for a local ask the desktop mirrors (docs/relay.md "Mirroring local asks"):
// a window here answers it by claiming the mirrored question's answer key on the relay, exactly as a desk
// answers a remote ask (RelayDesk.answer: sealed to the question's reply key, written with create()).
// Local agents never depend on the relay: a claim whose relay link has been down for MIRROR_CLAIM_MS
// settles here. A slow but connected relay is waited for (up to MIRROR_CLAIM_CEILING_MS): settling here
// then would overrule a desk the relay already told "accepted".
import type { Answer } from '../../shared/answer'
import type { ApprovalDecision } from '../../shared/approval'
import type { AnswerResult, RelayDesk } from '../../relay/exchange'
import { answeredElsewhere, decidedElsewhere, type Refusal, type Settlement } from '../registry'

/** What a window here replies to a mirrored ask: answers to its questions, or a decision on its approval. */
export type LocalReply = { answers: Answer[] } | { decision: ApprovalDecision }

/** How the local ask settles by `reply` when this desk's reply is the one taken. */
export function replySettlement(reply: LocalReply): Settlement {
  return 'answers' in reply
    ? { outcome: 'answered', answers: reply.answers }
    : { outcome: 'decided', decision: reply.decision }
}

/**
 * The decision a window's `decision` claims the relay with: "always allow" travels as allow once (the
 * rule it adds is this machine's own, applied here by the local settlement; the relay carries neither
 * the rule nor a way for a desk to send one).
 */
export function decisionOverRelay(decision: ApprovalDecision): ApprovalDecision {
  return decision.behavior === 'allow' ? { behavior: 'allow' } : decision
}

/** How long a window's answer to a mirrored ask waits for an unreachable relay before it settles the ask here alone. */
export const MIRROR_CLAIM_MS = 5_000
/** The longest a claim waits for a connected relay (as a desk's answer write does, ANSWER_WRITE_MS). */
export const MIRROR_CLAIM_CEILING_MS = 30_000
/** How often a claim looks whether the relay link is still up. */
const LINK_CHECK_MS = 250

/**
 * A signal for one claim: aborts once `linkUp()` has said false for `downMs` in a row, or after
 * `ceilingMs` in all. `stop()` ends its timers (call it when the claim settled).
 */
export function claimPatience(
  linkUp: () => boolean,
  downMs: number,
  ceilingMs: number = MIRROR_CLAIM_CEILING_MS,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController()
  const started = Date.now()
  let downSince: number | undefined
  const check = (): void => {
    const now = Date.now()
    downSince = linkUp() ? undefined : (downSince ?? now)
    if (downSince !== undefined && now - downSince >= downMs) {
      controller.abort(new Error(`the relay was unreachable for ${Math.round(downMs / 1000)} s`))
    } else if (now - started >= ceilingMs) {
      controller.abort(new Error(`the relay gave no reply within ${Math.round(ceilingMs / 1000)} s`))
    }
    if (controller.signal.aborted) clearInterval(timer)
  }
  const timer = setInterval(check, LINK_CHECK_MS)
  timer.unref()
  check()
  return { signal: controller.signal, stop: () => clearInterval(timer) }
}

/** What a claim needs of this desk's RelayDesk. */
export type ClaimingDesk = Pick<RelayDesk, 'pending' | 'settlement' | 'onAdded' | 'onEnded' | 'answer' | 'decide'>

/**
 * Answers (or decides, {@link decisionOverRelay}) this desktop's own question `key` on the relay through
 * `desk`, once the desk has read it (the question is written just before, so its watch may not have
 * delivered it yet). When the desk has already seen the asker's `delivered` receipt (before the claim or
 * while it waited), resolves with the member it names as the winner, as a lost write would: another
 * desk was told "accepted", so this one must not settle the ask here. Rejects with the desk's other
 * errors (`ASK_NOT_PENDING` when a withdrawal or expiry ended it first) or `signal`'s reason.
 */
export async function claimOwnQuestion(
  desk: ClaimingDesk,
  key: string,
  reply: LocalReply,
  signal: AbortSignal,
): Promise<AnswerResult> {
  const delivered = (): AnswerResult | undefined => {
    const settled = desk.settlement(key)
    return settled?.outcome === 'delivered' && settled.winner !== undefined
      ? { won: false, winner: settled.winner }
      : undefined
  }
  const before = delivered()
  if (before) return before
  if (!desk.pending().some((ask) => ask.key === key)) await deskReads(desk, key, signal)
  try {
    return await ('answers' in reply
      ? desk.answer(key, reply.answers, signal)
      : desk.decide(key, decisionOverRelay(reply.decision), signal))
  } catch (error) {
    const after = delivered()
    if (after) return after
    throw error
  }
}

/** Resolves once `desk` lists `key` or drops it (then `answer` says why); rejects when `signal` aborts. */
function deskReads(desk: ClaimingDesk, key: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stops: Array<() => void> = []
    const done = (error?: unknown): void => {
      for (const stop of stops) stop()
      signal.removeEventListener('abort', aborted)
      if (error === undefined) resolve()
      else reject(error)
    }
    const aborted = (): void => done(signal.reason)
    if (signal.aborted) return aborted()
    signal.addEventListener('abort', aborted, { once: true })
    stops.push(desk.onAdded((ask) => ask.key === key && done()))
    // Ended, listed or not: its receipt may come before the desk has opened the question.
    stops.push(desk.onEnded((settled) => settled.key === key && done()))
    // Read between the check and the subscription: the watch may have delivered it (or its end) meanwhile.
    if (desk.pending().some((ask) => ask.key === key) || desk.settlement(key) !== undefined) done()
  })
}

/**
 * How a window's reply to a mirrored ask settles by its claim's `result`: won (or an own reply that
 * landed after an earlier wait) settles the ask here with `reply`; another desk's win refuses it with
 * that desk's name (the mirror delivers that desk's reply to the agent); an answer nobody can verify
 * holding the key refuses it (the mirror asks again on the relay; the ask stays pending here).
 */
export function claimSettlement(result: AnswerResult, reply: LocalReply, self: string): Settlement | Refusal {
  if (result.won || result.winner?.id === self) return replySettlement(reply)
  if (result.winner)
    return 'answers' in reply ? answeredElsewhere(result.winner.name) : decidedElsewhere(result.winner.name)
  return {
    ok: false,
    code: 'INVALID_ANSWER',
    message: `an answer this desk cannot verify took this ask's place on the relay (${result.alarm}); nothing of yours was taken. It is asked again there: send your answer once more.`,
  }
}
