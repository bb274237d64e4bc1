import { z } from 'zod'
import { knownQuestionFields, QuestionSchema, type Question } from './tool-input'

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** What {@link readExtras} found on one raw question: problems (INVALID_ARGS wording) or the values. */
export interface Extras {
  problems: string[]
  detail?: string
  intent?: PlanReviewIntent
  secret?: boolean
}

/**
 * Reads `detail`, `secret` and `intent` off a question that passed the tool schema (`question` is its raw
 * object, `at` its path such as `questions[0]`). `detail` must be a string; `intent` an object with a
 * string `kind`. A `plan-review` intent needs `approve`, one of the question's option labels. An
 * intent of another kind (from a newer upstream) is ignored: the question shows as an ordinary one.
 */
export function readExtras(question: Question, at: string): Extras {
  const out: Extras = { problems: [] }
  const detail = question['detail']
  if (detail !== undefined) {
    if (typeof detail === 'string') out.detail = detail
    else out.problems.push(`"${at}.detail" must be a string`)
  }
  const secret = question['secret']
  if (secret !== undefined) {
    if (typeof secret !== 'boolean') out.problems.push(`"${at}.secret" must be a boolean`)
    else if (secret && (question.options ?? []).length > 0) out.problems.push(`"${at}.secret" is only allowed on a question with no options`)
    else out.secret = secret
  }
  const intent = question['intent']
  if (intent === undefined) return out
  if (!isRecord(intent)) {
    out.problems.push(`"${at}.intent" must be an object`)
    return out
  }
  const kind = intent['kind']
  if (typeof kind !== 'string') {
    out.problems.push(kind === undefined ? `missing required property "${at}.intent.kind"` : `"${at}.intent.kind" must be a string`)
    return out
  }
  if (kind !== 'plan-review') return out
  const approve = intent['approve']
  if (typeof approve !== 'string') {
    out.problems.push(approve === undefined ? `missing required property "${at}.intent.approve"` : `"${at}.intent.approve" must be a string`)
  } else if (!(question.options ?? []).some((option) => option.label === approve)) {
    out.problems.push(`"${at}.intent.approve" must be one of the question's option labels; ${JSON.stringify(approve)} is not`)
  } else {
    out.intent = { kind, approve }
  }
  return out
}
