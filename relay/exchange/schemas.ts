// What travels inside the sealed envelopes of one remote ask, and the roster record on the relay. The
// one source of these shapes; both ends parse with them after decrypting.
import { z } from 'zod'
import { AnswerSchema } from '../../shared/answer'
import { QuestionSchema } from '../../shared/tool-input'

/** The longest local agent name a mirrored question carries (longer ones are cut to it). */
export const MIRRORED_NAME_CHARS = 200

/**
 * The question body an agent seals (version 1): the ask's questions as the tool takes them, an
 * optional title, and a link to the ask it replaces (`previousAskId`) when it asks again after an
 * unverifiable answer took the first one's answer key, and when the agent stops waiting.
 */
export const RemoteQuestionBodySchema = z.strictObject({
  v: z.literal(1),
  questions: z.array(QuestionSchema).min(1),
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
   * The longest custom answer the asking end takes (a mirroring desktop's `textChars` cap): a desk
   * refuses a longer one before writing it, so it is never told "accepted" for an answer the asker drops.
   */
  maxCustomChars: z.int().min(1).optional(),
})
export type RemoteQuestionBody = z.infer<typeof RemoteQuestionBodySchema>

/** The answer body a device seals: the canonical answers, one per question, in question order. */
export const RemoteAnswerBodySchema = z.strictObject({
  v: z.literal(1),
  answers: z.array(AnswerSchema),
})
export type RemoteAnswerBody = z.infer<typeof RemoteAnswerBodySchema>
