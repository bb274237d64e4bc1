import { z } from 'zod'
import { knownQuestionFields, QuestionSchema } from './tool-input'

/**
 * Upstream's `intent` for a question that asks the person to approve a plan: the plan is the
 * question's `detail`, and `approve` is the option label that means "approved".
 */
export const PlanReviewIntentSchema = z.object({
  kind: z.literal('plan-review'),
  approve: z.string(),
})
export type PlanReviewIntent = z.infer<typeof PlanReviewIntentSchema>

/**
 * A question as protocol v1 clients (programs, not models), the seam and windows may send it: the
 * tool's question plus `detail` (longer Markdown text about the question) and `intent` (only
 * `plan-review` is understood; an unknown kind is dropped before it gets here) and `secret` (a
 * password prompt, see {@link isSecretQuestion}). The model's tool input never carries any of them:
 * the tool boundary drops them (see `validateToolInput`), so a model cannot show a masked card.
 */
export const AskQuestionSchema = QuestionSchema.extend({
  detail: z.string().optional().describe('Longer Markdown text about the question (a plan, for example).'),
  intent: PlanReviewIntentSchema.optional(),
  secret: z
    .boolean()
    .optional()
    .describe('A free-text question with no options whose answer is a secret (a password): masked, never kept.'),
})
export type AskQuestion = z.infer<typeof AskQuestionSchema>

/** Protocol v1 ask arguments `{questions}`: tool arguments whose questions may carry `detail` and `intent`. */
export const AskInputSchema = z.looseObject({ questions: z.array(AskQuestionSchema) })
export type AskInput = z.infer<typeof AskInputSchema>

/** A copy of a question with the tool's fields and, when present, `detail` and a plan-review `intent`. */
export function askQuestionFields(question: AskQuestion): AskQuestion {
  const out: AskQuestion = knownQuestionFields(question)
  if (question.detail !== undefined) out.detail = question.detail
  if (question.intent !== undefined) out.intent = { kind: question.intent.kind, approve: question.intent.approve }
  if (question.secret === true) out.secret = true
  return out
}

/** True for a secret question: `secret: true` (only accepted on a free-text question with no options). */
export function isSecretQuestion(question: { secret?: unknown }): boolean {
  return question.secret === true
}

/** True when any question of the ask is secret: then its answers are never kept or shown again. */
export function hasSecret(ask: { kind?: string; questions?: readonly { secret?: unknown }[] }): boolean {
  return ask.questions?.some(isSecretQuestion) ?? false
}

/** True when the question is a plan review whose approve label is one of its options. */
export function isPlanReview(question: AskQuestion): question is AskQuestion & { intent: PlanReviewIntent } {
  const approve = question.intent?.approve
  return approve !== undefined && (question.options ?? []).some((option) => option.label === approve)
}
