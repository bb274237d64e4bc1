// UI channel v1 (deprecated: served for at least one release after v2): its frame names and shapes,
// and the translation at the companion's edge. The hub speaks v2 only; a v1 window's socket turns its
// frames into v2 on the way in and the hub's v2 frames into v1 on the way out, so a script written
// against v1 reads the same text as before.
import { z } from 'zod'
import { AnswerSchema } from '../shared/answer'
import { ApprovalDecisionSchema } from '../shared/approval'
import { InboxNoticeSchema, type InboxNotice } from '../shared/ask'
import { ConnectInfoSchema } from '../shared/connect'
import {
  RejectionCodeSchema,
  UiHistoryRequestFrameSchema,
  UiNoticeDismissFrameSchema,
  type UiClientFrame,
  type UiServerFrame,
} from '../shared/ui'
import { toV1Ask, toV1HistoryEntry, v1Outcome, V1AskSchema, V1HistoryEntrySchema, V1OutcomeSchema } from './ask-v1'
import { WRONG_KIND_REASON } from './registry'
import { checkWindowFrame, type WindowFrameCheck, type WindowFrameRule } from './ui-frames'

/** v1's subprotocol with the window credential in `Authorization: Bearer` or a `token.` subprotocol. */
export const UI_V1_SUBPROTOCOL = 'ask-user.ui.v1'
/** v1's subprotocol with the proof of the companion (the served page of earlier versions). */
export const UI_V1_PROOF_SUBPROTOCOL = 'ask-user.ui.v1.proof'

// companion → window
const V1SnapshotFrameSchema = z.object({
  type: z.literal('snapshot'),
  pending: z.array(V1AskSchema),
  connect: ConnectInfoSchema.optional(),
  notices: z.array(InboxNoticeSchema).optional(),
  restUntil: z.number().optional(),
})
/** Every frame a v1 window may be sent. */
export const V1ServerFrameSchema = z.discriminatedUnion('type', [
  V1SnapshotFrameSchema,
  z.object({ type: z.literal('question/added'), ask: V1AskSchema }),
  z.object({ type: z.literal('question/resolved'), askId: z.string(), outcome: V1OutcomeSchema }),
  z.object({ type: z.literal('notice/added'), notice: InboxNoticeSchema }),
  z.object({ type: z.literal('notice/removed'), noticeId: z.string() }),
  z.object({
    type: z.literal('accepted'),
    askId: z.string(),
    outcome: V1OutcomeSchema.extract(['answered', 'cancelled']),
    undelivered: z.literal(true).optional(),
  }),
  z.object({ type: z.literal('rejected'), askId: z.string(), code: RejectionCodeSchema, reason: z.string() }),
  z.object({ type: z.literal('history'), entries: z.array(V1HistoryEntrySchema), more: z.boolean().optional() }),
])
export type V1ServerFrame = z.infer<typeof V1ServerFrameSchema>

// window → companion
const V1AnswerFrameSchema = z.object({ type: z.literal('answer'), askId: z.string(), answers: z.array(AnswerSchema) })
const V1DecideFrameSchema = z.object({ type: z.literal('decide'), askId: z.string(), decision: ApprovalDecisionSchema })
const V1DismissFrameSchema = z.object({ type: z.literal('dismiss'), askId: z.string() })
/** Every frame a v1 window may send. */
export const V1ClientFrameSchema = z.discriminatedUnion('type', [
  V1AnswerFrameSchema,
  V1DecideFrameSchema,
  V1DismissFrameSchema,
  UiNoticeDismissFrameSchema,
  UiHistoryRequestFrameSchema,
])
export type V1ClientFrame = z.infer<typeof V1ClientFrameSchema>

const V1_RULES: Record<V1ClientFrame['type'], WindowFrameRule<V1ClientFrame>> = {
  answer: { schema: V1AnswerFrameSchema, subject: 'askId' },
  decide: { schema: V1DecideFrameSchema, subject: 'askId' },
  dismiss: { schema: V1DismissFrameSchema, subject: 'askId' },
  'notice/dismiss': { schema: UiNoticeDismissFrameSchema, subject: 'noticeId' },
  'history/get': { schema: UiHistoryRequestFrameSchema, subject: undefined },
}

/** The one check of a v1 window's frame, in v1's words, and the v2 frame it stands for. */
export function parseV1WindowFrame(value: unknown): WindowFrameCheck {
  const checked = checkWindowFrame(value, V1_RULES)
  if (!checked.ok) return checked
  const frame = checked.frame
  switch (frame.type) {
    case 'answer':
      return { ok: true, frame: { type: 'ask/answer', askId: frame.askId, answers: frame.answers } }
    case 'decide':
      return { ok: true, frame: { type: 'ask/decide', askId: frame.askId, decision: frame.decision } }
    case 'dismiss':
      return { ok: true, frame: { type: 'ask/dismiss', askId: frame.askId } }
    default:
      return { ok: true, frame: frame satisfies UiClientFrame }
  }
}

/**
 * The notice a v1 window of the companion's own page gets in its snapshot: that page is an old tab
 * (today's page speaks v2), and its notice list is what it already shows.
 */
export const RELOAD_NOTICE: InboxNotice = {
  noticeId: 'ask-user-ui-v1-reload',
  agent: { name: 'Ask User Companion' },
  notice: { kind: 'info', text: 'The companion was updated: reload this page.' },
  receivedAt: 0,
}

/** v1's words for a reply of the wrong kind (they name no frame; v2's name the one to send). */
const V1_WRONG_KIND_REASONS: ReadonlyMap<string, string> = new Map([
  [WRONG_KIND_REASON.answer, 'this ask is an approval: send a decision (allow or deny), not answers'],
  [WRONG_KIND_REASON.decide, 'this ask has questions: send answers, not a decision'],
])

/**
 * The v1 frame a v2 frame stands for: asks in v1's shape (an approval with `questions: []`), v1's names
 * (`question/added`, `question/resolved`, `accepted`, `rejected`), v1's wording for a reply of the wrong
 * kind, and outcome `answered` for a decided approval. `reload`: add {@link RELOAD_NOTICE} to a snapshot
 * (an old tab of our own page). Undefined for a frame v1 has no counterpart of (`relay/state`,
 * `ask/origin`): not sent.
 */
export function toV1Frame(frame: UiServerFrame, reload = false): V1ServerFrame | undefined {
  switch (frame.type) {
    case 'snapshot': {
      const notices = reload ? [RELOAD_NOTICE, ...(frame.notices ?? [])] : frame.notices
      return {
        type: 'snapshot',
        pending: frame.pending.map(toV1Ask),
        ...(frame.connect ? { connect: frame.connect } : {}),
        ...(notices ? { notices } : {}),
        ...(frame.restUntil !== undefined ? { restUntil: frame.restUntil } : {}),
      }
    }
    case 'ask/added':
      return { type: 'question/added', ask: toV1Ask(frame.ask) }
    case 'ask/settled':
      return { type: 'question/resolved', askId: frame.askId, outcome: v1Outcome(frame.outcome) }
    case 'ask/accepted':
      return {
        type: 'accepted',
        askId: frame.askId,
        outcome: v1Outcome(frame.outcome),
        ...(frame.undelivered ? { undelivered: true as const } : {}),
      }
    case 'ask/rejected':
      return {
        type: 'rejected',
        askId: frame.askId,
        code: frame.code,
        reason: V1_WRONG_KIND_REASONS.get(frame.reason) ?? frame.reason,
      }
    case 'history':
      return {
        type: 'history',
        entries: frame.entries.map(toV1HistoryEntry),
        ...(frame.more !== undefined ? { more: frame.more } : {}),
      }
    case 'notice/added':
    case 'notice/removed':
      return frame
    // v1 windows predate the relay view and remote asks' marks: they never get these frames.
    case 'relay/state':
    case 'ask/origin':
      return undefined
  }
}
