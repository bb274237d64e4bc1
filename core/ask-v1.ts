import { z } from 'zod'
import { AnswerSchema } from '../shared/answer'
import { ApprovalDecisionSchema, ApprovalRequestSchema } from '../shared/approval'
import { AgentInfoSchema, AskpassMarkSchema, type Ask, type HistoryEntry } from '../shared/ask'
import { AskQuestionSchema } from '../shared/question-extras'

/**
 * The ask and history entry as UI channel v1 sent them and as history files of earlier versions hold
 * them: one shape for both kinds, with no `kind`; an approval has `questions: []` and `approval`, and a
 * decided approval the outcome `answered` with its `decision`. Only this file and its two users know it:
 * the v1 edge of the UI channel (ui-v1.ts) and the history's upgrade at read (history-upgrade.ts).
 */
export const V1AskSchema = z.object({
  askId: z.string(),
  agent: AgentInfoSchema,
  title: z.string().optional(),
  questions: z.array(AskQuestionSchema),
  approval: ApprovalRequestSchema.optional(),
  askpass: AskpassMarkSchema.optional(),
  receivedAt: z.number(),
})
export type V1Ask = z.infer<typeof V1AskSchema>

/** v1's outcomes: a decided approval was `answered`. */
export const V1OutcomeSchema = z.enum(['answered', 'cancelled', 'aborted', 'agent-gone'])
export type V1Outcome = z.infer<typeof V1OutcomeSchema>

/** A v1 history entry (a line written by an earlier version, or an entry sent to a v1 window). */
export const V1HistoryEntrySchema = V1AskSchema.extend({
  outcome: V1OutcomeSchema,
  settledAt: z.number(),
  answers: z.array(AnswerSchema).optional(),
  decision: ApprovalDecisionSchema.optional(),
  undelivered: z.literal(true).optional(),
  truncated: z.literal(true).optional(),
})
export type V1HistoryEntry = z.infer<typeof V1HistoryEntrySchema>

/**
 * The v1 outcome of a v2 one: a decided approval was `answered`; a remote ask's expiry, which v1 has no
 * word for, reads as the agent withdrawing it (`aborted`).
 */
export function v1Outcome<O extends HistoryEntry['outcome']>(outcome: O): V1OutcomeOf<O> {
  if (outcome === 'decided') return 'answered' as V1OutcomeOf<O>
  if (outcome === 'expired') return 'aborted' as V1OutcomeOf<O>
  return outcome as V1OutcomeOf<O>
}

type V1OutcomeOf<O> =
  | Exclude<O, 'decided' | 'expired'>
  | ('decided' extends O ? 'answered' : never)
  | ('expired' extends O ? 'aborted' : never)

/** An ask as v1 sent it, its members in v1's order (a v1 window gets the same text as before). */
export function toV1Ask(ask: Ask): V1Ask {
  return v1AskFields(ask)
}

/** A history entry as v1 sent it. */
export function toV1HistoryEntry(entry: HistoryEntry): V1HistoryEntry {
  const v1: V1HistoryEntry = { ...v1AskFields(entry), outcome: v1Outcome(entry.outcome), settledAt: entry.settledAt }
  if (entry.kind === 'question' && entry.answers !== undefined) v1.answers = entry.answers
  if (entry.kind === 'approval' && entry.decision !== undefined) v1.decision = entry.decision
  if (entry.undelivered) v1.undelivered = true
  if (entry.truncated) v1.truncated = true
  return v1
}

/** The v1 ask members of an ask or entry of either kind (an approval's `questions` is empty). */
function v1AskFields(ask: Ask | HistoryEntry): V1Ask {
  const v1: V1Ask = {
    askId: ask.askId,
    agent: ask.agent,
    questions: ask.kind === 'question' ? ask.questions : [],
    receivedAt: ask.receivedAt,
  }
  if (ask.title !== undefined) v1.title = ask.title
  if (ask.kind === 'approval' && ask.approval !== undefined) v1.approval = ask.approval
  if (ask.kind === 'question' && ask.askpass !== undefined) v1.askpass = ask.askpass
  return v1
}

/**
 * A v1 history entry in today's shape: an entry with an `approval` or a `decision` is an approval
 * (`answered` becomes `decided`), any other a question ask. A v1 approval cut to its envelope kept
 * neither, so it reads as a question ask that was answered: the history view still shows its agent,
 * title, times and outcome.
 */
export function fromV1HistoryEntry(v1: V1HistoryEntry): HistoryEntry {
  const common = {
    askId: v1.askId,
    agent: v1.agent,
    ...(v1.title !== undefined ? { title: v1.title } : {}),
    receivedAt: v1.receivedAt,
    settledAt: v1.settledAt,
    ...(v1.undelivered ? { undelivered: true as const } : {}),
    ...(v1.truncated ? { truncated: true as const } : {}),
  }
  if (v1.approval !== undefined || v1.decision !== undefined) {
    return {
      ...common,
      kind: 'approval',
      ...(v1.approval !== undefined ? { approval: v1.approval } : {}),
      outcome: v1.outcome === 'answered' ? 'decided' : v1.outcome,
      ...(v1.decision !== undefined ? { decision: v1.decision } : {}),
    }
  }
  return {
    ...common,
    kind: 'question',
    questions: v1.questions,
    ...(v1.askpass !== undefined ? { askpass: v1.askpass } : {}),
    outcome: v1.outcome,
    ...(v1.answers !== undefined ? { answers: v1.answers } : {}),
  }
}
