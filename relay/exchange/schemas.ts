// What travels inside the sealed envelopes of one remote ask, and the roster record on the relay. The
// one source of these shapes; both ends parse with them after decrypting.
import { z } from 'zod'
import { AnswerSchema } from '../../shared/answer'
import { ApprovalDecisionSchema, ApprovalRequestSchema } from '../../shared/approval'
import { QuestionSchema } from '../../shared/tool-input'

/** The longest local agent name a mirrored question carries (longer ones are cut to it). */
export const MIRRORED_NAME_CHARS = 200

/** What every question body carries besides what is asked (RemoteQuestionBodySchema). */
const QuestionBodyCommon = {
  v: z.literal(1),
  title: z.string().optional(),
  previousAskId: z.string().optional(),
  /** When the agent stops waiting (ms since the epoch): desks drop the ask then even without a receipt. */
  expiresAt: z.int().min(0).optional(),
  /**
   * Set only by a desktop mirroring a local agent's ask (core/relay-bridge/mirror.ts): the name that
   * agent gave on this desktop. Desks show it as "<name> on <desktop>", the desktop's name taken from the
   * roster; a question signed by an agent that carries it is refused, one signed by a desktop needs it.
   */
  mirroredFor: z.string().min(1).max(MIRRORED_NAME_CHARS).optional(),
  /**
   * The longest custom answer, or reason given with a deny, the asking end takes (a mirroring desktop's
   * `textChars` cap): a desk refuses a longer one before writing it, so it is never told "accepted" for
   * an answer the asker drops.
   */
  maxCustomChars: z.int().min(1).optional(),
}

/** A body asking questions: the ask's questions as the tool takes them. */
export const QuestionsBodySchema = z.strictObject({
  ...QuestionBodyCommon,
  questions: z.array(QuestionSchema).min(1),
})

/**
 * A body asking for an approval: only a desktop mirroring a local agent's permission prompt seals one
 * (`mirroredFor` is then required by desk-question.ts's role rule), with the request exactly as that
 * desktop's windows get it. Strict, with no `questions`: a desk built before approvals travelled refuses
 * it as "not a remote ask" rather than showing half of it.
 */
export const ApprovalBodySchema = z.strictObject({
  ...QuestionBodyCommon,
  approval: ApprovalRequestSchema,
})

/**
 * The question body an agent seals (version 1): questions ({@link QuestionsBodySchema}) or one
 * approval ({@link ApprovalBodySchema}), an optional title, and a link to the ask it replaces
 * (`previousAskId`) when it asks again after an unverifiable answer took the first one's answer key,
 * and when the agent stops waiting.
 */
export const RemoteQuestionBodySchema = z.union([QuestionsBodySchema, ApprovalBodySchema])
export type RemoteQuestionBody = z.infer<typeof RemoteQuestionBodySchema>

/**
 * The answer body a device seals: the canonical answers, one per question, in question order; or, to an
 * approval body, the person's decision. Strict: an asker built before approvals refuses a decision.
 * The decision parses as the window's shape, `always` included, so that the asker can refuse an
 * "always allow" with its own code (`ALWAYS_NOT_REMOTE`): it would change the mirroring machine's
 * permission rules from another device, and no desk sends it.
 */
export const RemoteAnswerBodySchema = z.union([
  z.strictObject({ v: z.literal(1), answers: z.array(AnswerSchema) }),
  z.strictObject({ v: z.literal(1), decision: ApprovalDecisionSchema }),
])
export type RemoteAnswerBody = z.infer<typeof RemoteAnswerBodySchema>
