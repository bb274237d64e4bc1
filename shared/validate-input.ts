import { z } from 'zod'
import type { ErrorCode, Refusal } from './error-codes'
import {
  argumentViolations,
  describeIssue,
  invalidArgumentsMessage,
  limitExceededMessage,
  overCap,
} from './issue-wording'
import { DEFAULT_LIMITS, type Limits } from './limits'
import { AskQuestionSchema, PlanReviewIntentSchema, type AskInputSchema, type AskQuestion } from './question-extras'
import { AskUserQuestionInputSchema, QuestionSchema, type AskUserQuestionInput, type Question } from './tool-input'

/** The protocol's ask arguments with a brand on their output; only its type is used (see {@link ValidatedAsk}). */
type BrandedAskSchema = ReturnType<typeof AskInputSchema.brand<'ValidatedAsk'>>

/**
 * Ask arguments `{questions}` that {@link validateToolInput} or {@link validateAskInput} accepted: the
 * right shape, at least one question, within the caps they were given. Only those functions make one,
 * so code that takes a `ValidatedAsk` (the agent's client and connection) has nothing left to check.
 * From the tool boundary its questions carry only the tool's keys; from a protocol client they may
 * carry `detail`, a plan-review `intent` and `secret` too.
 */
export type ValidatedAsk = z.infer<BrandedAskSchema>

/** Why ask arguments were refused. */
export type InputRefusal = Refusal<Extract<ErrorCode, 'INVALID_ARGS' | 'EMPTY_QUESTIONS' | 'LIMIT_EXCEEDED'>>

/** The outcome of {@link validateToolInput} and {@link validateAskInput}: a {@link ValidatedAsk}, or the refusal. */
export type InputCheck = { ok: true; value: ValidatedAsk } | InputRefusal

/** The message for an ask with no questions (code `EMPTY_QUESTIONS`). */
export const EMPTY_QUESTIONS_MESSAGE = 'ask_user_question needs at least one question; "questions" was empty'

/**
 * The tool schema as the tool boundary applies it: a question keeps only the keys the schema names
 * (as upstream's tool copies them), its options pass through as they came (extra keys included).
 */
const ToolArgumentsSchema = AskUserQuestionInputSchema.extend({ questions: z.array(z.object(QuestionSchema.shape)) })

/**
 * Validates the model's tool arguments (the tool boundary: the MCP tool, the provider's tool, `ask-user
 * ask --json`) in upstream's order: shape (`INVALID_ARGS`), then an empty batch (`EMPTY_QUESTIONS`),
 * then our caps (`LIMIT_EXCEEDED`). As upstream, every question key the tool schema does not name
 * (`detail`, `intent` included) is dropped, and option objects pass through as they are: the model
 * cannot set `detail` or `intent`. Never throws. Run it once where arguments enter a process.
 */
export function validateToolInput(args: unknown, limits: Limits = DEFAULT_LIMITS): InputCheck {
  const shaped = checkShape(args, ToolArgumentsSchema)
  return shaped.ok ? withinLimits(shaped.value, limits) : shaped
}

/**
 * Validates ask arguments from a protocol v1 client (a program, not a model: the companion's agent
 * endpoint, `validateAsk`, the seam's provider, `ask-user ask --detail`): {@link validateToolInput}'s
 * checks, plus `detail` (a string, capped like every text field) and `intent` (an object with a string
 * `kind`; a `plan-review` intent's `approve` must be one of that question's option labels, else
 * `INVALID_ARGS`; another kind is dropped) and `secret` (a boolean; `true` only on a question with no
 * options). Other keys stay. Never throws.
 */
export function validateAskInput(args: unknown, limits: Limits = DEFAULT_LIMITS): InputCheck {
  const shaped = checkShape(args)
  if (!shaped.ok) return shaped
  const problems: string[] = []
  const questions = shaped.value.questions.map((question, q) => {
    const extras = readExtras(args, question, q)
    problems.push(...extras.problems)
    const { detail: _detail, intent: _intent, secret: _secret, ...rest } = question
    return { ...rest, ...extras.value }
  })
  if (problems.length > 0) return { ok: false, code: 'INVALID_ARGS', message: invalidArgumentsMessage(problems) }
  return withinLimits({ ...shaped.value, questions }, limits)
}

/** The tool schema's shape and a non-empty batch, worded as upstream. */
function checkShape(
  args: unknown,
  schema: z.ZodType<AskUserQuestionInput> = AskUserQuestionInputSchema,
): { ok: true; value: AskUserQuestionInput } | InputRefusal {
  const parsed = schema.safeParse(args)
  if (!parsed.success)
    return {
      ok: false,
      code: 'INVALID_ARGS',
      message: invalidArgumentsMessage(argumentViolations(args, parsed.error.issues)),
    }
  if (parsed.data.questions.length === 0)
    return { ok: false, code: 'EMPTY_QUESTIONS', message: EMPTY_QUESTIONS_MESSAGE }
  return { ok: true, value: parsed.data }
}

/**
 * The extras as a protocol client may send them: `AskQuestionSchema`'s `detail` and `secret`, and an
 * `intent` of any string `kind` (a kind from a newer upstream is tolerated, then dropped).
 */
const ClientExtrasSchema = AskQuestionSchema.pick({ detail: true, secret: true }).extend({
  intent: z.looseObject({ kind: z.string() }).optional(),
})
type Extras = Pick<AskQuestion, 'detail' | 'intent' | 'secret'>

/**
 * Reads `detail`, `secret` and `intent` off question `q` of `args` (already past the tool schema), in
 * that order, every problem in INVALID_ARGS wording. `secret: true` needs a question without options;
 * a `plan-review` intent is `PlanReviewIntentSchema` plus the rule that `approve` is one of the
 * question's option labels.
 */
function readExtras(args: unknown, question: Question, q: number): { problems: string[]; value: Extras } {
  const at = `questions[${q}]`
  const problems: string[] = []
  const parse = <T>(key: string, schema: z.ZodType<T>, raw: unknown): T | undefined => {
    const parsed = schema.safeParse(raw)
    if (parsed.success) return parsed.data
    problems.push(
      ...parsed.error.issues.map((issue) =>
        describeIssue(args, { ...issue, path: ['questions', q, key, ...issue.path] }),
      ),
    )
    return undefined
  }
  const { shape } = ClientExtrasSchema
  const value: Extras = {}
  const detail = parse('detail', shape.detail, question['detail'])
  if (detail !== undefined) value.detail = detail
  const secret = parse('secret', shape.secret, question['secret'])
  if (secret === true && (question.options ?? []).length > 0)
    problems.push(`"${at}.secret" is only allowed on a question with no options`)
  else if (secret !== undefined) value.secret = secret
  const intent = parse('intent', shape.intent, question['intent'])
  if (intent?.kind !== 'plan-review') return { problems, value }
  const planReview = parse('intent', PlanReviewIntentSchema, intent)
  if (planReview === undefined) return { problems, value }
  if ((question.options ?? []).some((option) => option.label === planReview.approve)) value.intent = planReview
  else
    problems.push(
      `"${at}.intent.approve" must be one of the question's option labels; ${JSON.stringify(planReview.approve)} is not`,
    )
  return { problems, value }
}

/** The caps (`LIMIT_EXCEEDED`, every overflow named), then the brand. */
function withinLimits(input: AskUserQuestionInput, limits: Limits): InputCheck {
  const overflows = capOverflows(input, limits)
  if (overflows.length > 0) return { ok: false, code: 'LIMIT_EXCEEDED', message: limitExceededMessage(overflows) }
  // The brand is minted here, and only here: `input` passed the schema and the caps just now.
  return { ok: true, value: input as ValidatedAsk }
}

/**
 * The safety caps on a schema-valid input: one plain-language violation per overflow, each naming the
 * path, the size found and the cap (empty when within limits).
 */
function capOverflows(input: AskUserQuestionInput, limits: Limits): string[] {
  const violations: string[] = []
  const text = (path: string, value: unknown): void => {
    if (typeof value === 'string' && value.length > limits.textChars) {
      violations.push(overCap(path, value.length, limits.textChars))
    }
  }
  const count = (path: string, items: readonly unknown[], max: number): void => {
    if (items.length > max) violations.push(overCap(path, items.length, max, 'items'))
  }
  count('questions', input.questions, limits.questionsPerAsk)
  input.questions.forEach((question, q) => {
    const at = `questions[${q}]`
    text(`${at}.id`, question.id)
    text(`${at}.question`, question.question)
    text(`${at}.header`, question.header)
    // `detail` reaches the caps only from protocol v1 clients (the tool boundary drops it)
    text(`${at}.detail`, question['detail'])
    const options = question.options ?? []
    count(`${at}.options`, options, limits.optionsPerQuestion)
    options.forEach((option, o) => {
      text(`${at}.options[${o}].label`, option.label)
      text(`${at}.options[${o}].description`, option.description)
    })
  })
  return violations
}
