import type { z } from 'zod'
import { describeArgumentIssues, invalidArgumentsMessage } from './argument-errors'
import type { ErrorCode } from './error-codes'
import { checkLimits } from './limits-check'
import { DEFAULT_LIMITS, type Limits } from './limits'
import { readExtras, type AskInputSchema } from './question-extras'
import { AskUserQuestionInputSchema, type AskUserQuestionInput, type Question } from './tool-input'

/**
 * The protocol's ask arguments with a brand on their output: what {@link validateToolInput} and
 * {@link validateAskInput} (and nothing else) make. Only its type is used: both check by hand or with
 * the unbranded schemas, then brand what they checked through {@link isWellFormedWithinLimits}.
 */
type BrandedAskSchema = ReturnType<typeof AskInputSchema.brand<'ValidatedAsk'>>

/**
 * Ask arguments `{questions}` that {@link validateToolInput} or {@link validateAskInput} accepted: the
 * right shape, at least one question, within the caps they were given. Only those functions make one,
 * so code that takes a `ValidatedAsk` (the agent's client and connection) has nothing left to check.
 * From the tool boundary its questions carry only the tool's keys; from a protocol client they may
 * carry `detail` and a plan-review `intent` too.
 */
export type ValidatedAsk = z.infer<BrandedAskSchema>

/** The outcome of {@link validateToolInput}: a {@link ValidatedAsk}, or the code and message of the refusal. */
export type InputCheck =
  | { ok: true; input: ValidatedAsk }
  | { ok: false; code: Extract<ErrorCode, 'INVALID_ARGS' | 'EMPTY_QUESTIONS' | 'LIMIT_EXCEEDED'>; message: string }

/** The message for an ask with no questions (code `EMPTY_QUESTIONS`). */
export const EMPTY_QUESTIONS_MESSAGE = 'ask_user_question needs at least one question; "questions" was empty'

/** The question keys of the tool's schema: all that passes the tool boundary. */
const TOOL_QUESTION_KEYS = new Set(['id', 'question', 'header', 'options', 'multi_select'])

type Refusal = Extract<InputCheck, { ok: false }>

/**
 * Validates the model's tool arguments (the tool boundary: the MCP tool, the provider's tool, `ask-user
 * ask --json`) in upstream's order: shape (`INVALID_ARGS`), then an empty batch (`EMPTY_QUESTIONS`),
 * then our caps (`LIMIT_EXCEEDED`). As upstream, every question key the tool schema does not name
 * (`detail`, `intent` included) is dropped, and option objects pass through as they are: the model
 * cannot set `detail` or `intent`. Never throws. An input with nothing to drop comes back as the same
 * object, typed {@link ValidatedAsk}. Run it once where arguments enter a process.
 */
export function validateToolInput(args: unknown, limits: Limits = DEFAULT_LIMITS): InputCheck {
  // Hot path: a well-formed ask within the caps, nothing to drop, is accepted without zod's copy.
  if (isWellFormedWithinLimits(args, limits, 'tool')) return { ok: true, input: args }
  const shaped = checkShape(args)
  if (!shaped.ok) return shaped
  const questions = shaped.input.questions.map((question): Question => {
    // options as they came: their extra keys pass through, as upstream
    const out: Question = { id: question.id, question: question.question }
    if (question.header !== undefined) out.header = question.header
    if (question.options !== undefined) out.options = question.options
    if (question.multi_select !== undefined) out.multi_select = question.multi_select
    return out
  })
  return withinLimits({ ...shaped.input, questions }, limits, 'tool')
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
  if (isWellFormedWithinLimits(args, limits, 'protocol')) return { ok: true, input: args }
  const shaped = checkShape(args)
  if (!shaped.ok) return shaped
  const problems: string[] = []
  const questions = shaped.input.questions.map((question, q) => {
    const { detail: _detail, intent: _intent, secret: _secret, ...rest } = question
    const extras = readExtras(question, `questions[${q}]`)
    problems.push(...extras.problems)
    return {
      ...rest,
      ...(extras.detail !== undefined ? { detail: extras.detail } : {}),
      ...(extras.intent !== undefined ? { intent: extras.intent } : {}),
      ...(extras.secret !== undefined ? { secret: extras.secret } : {}),
    }
  })
  if (problems.length > 0) return { ok: false, code: 'INVALID_ARGS', message: invalidArgumentsMessage(problems) }
  return withinLimits({ ...shaped.input, questions }, limits, 'protocol')
}

/** The tool schema's shape and a non-empty batch, worded as upstream. */
function checkShape(args: unknown): { ok: true; input: AskUserQuestionInput } | Refusal {
  const parsed = AskUserQuestionInputSchema.safeParse(args)
  if (!parsed.success) {
    return { ok: false, code: 'INVALID_ARGS', message: invalidArgumentsMessage(describeArgumentIssues(args, parsed.error.issues)) }
  }
  if (parsed.data.questions.length === 0) return { ok: false, code: 'EMPTY_QUESTIONS', message: EMPTY_QUESTIONS_MESSAGE }
  return { ok: true, input: parsed.data }
}

/** The caps (`LIMIT_EXCEEDED`, every overflow named), then the brand. */
function withinLimits(input: AskUserQuestionInput, limits: Limits, mode: Mode): InputCheck {
  const overflows = checkLimits(input, limits)
  if (overflows.length > 0) return { ok: false, code: 'LIMIT_EXCEEDED', message: `limit exceeded: ${overflows.join('; ')}` }
  if (isWellFormedWithinLimits(input, limits, mode)) return { ok: true, input }
  // Unreachable while the hand check and the schemas agree (a property test holds them together).
  return { ok: false, code: 'INVALID_ARGS', message: invalidArgumentsMessage(['the questions could not be checked']) }
}

/** Which boundary is checking: the model's tool input, or a protocol client's ask. */
type Mode = 'tool' | 'protocol'

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max
const isOptionalText = (value: unknown, max: number): boolean => value === undefined || isText(value, max)
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** No intent, or a plan-review intent (exactly `kind` and `approve`) naming one of `options`' labels. */
function isPlanReviewOrAbsent(intent: unknown, options: unknown): boolean {
  if (intent === undefined) return true
  if (!isRecord(intent) || intent['kind'] !== 'plan-review' || Object.keys(intent).length !== 2) return false
  const approve = intent['approve']
  return typeof approve === 'string' && Array.isArray(options) && options.some((option) => isRecord(option) && option['label'] === approve)
}

/** No `secret`, `secret: false`, or `secret: true` on a question without options. */
function isSecretFlagOrAbsent(secret: unknown, options: unknown): boolean {
  if (secret === undefined || secret === false) return true
  return secret === true && (options === undefined || (Array.isArray(options) && options.length === 0))
}

/**
 * The common case, checked by hand: the schema's shape with at least one question and every cap
 * respected; for the tool, no question key to drop; for a protocol client, a string `detail` and no
 * intent or a valid plan-review one. Anything else goes through zod, which words the errors; the two
 * must agree on what is valid (tested by a property test). It is also the brand: what it accepts is a
 * {@link ValidatedAsk}.
 */
function isWellFormedWithinLimits(args: unknown, limits: Limits, mode: Mode): args is ValidatedAsk {
  if (!isRecord(args)) return false
  const questions = args['questions']
  if (!Array.isArray(questions) || questions.length === 0 || questions.length > limits.questionsPerAsk) return false
  const max = limits.textChars
  for (const question of questions) {
    if (!isRecord(question)) return false
    if (!isText(question['id'], max) || !isText(question['question'], max)) return false
    if (!isOptionalText(question['header'], max)) return false
    if (mode === 'tool' && Object.keys(question).some((key) => !TOOL_QUESTION_KEYS.has(key))) return false
    if (mode === 'protocol' && !isOptionalText(question['detail'], max)) return false
    const multi = question['multi_select']
    if (multi !== undefined && typeof multi !== 'boolean') return false
    const options = question['options']
    if (mode === 'protocol' && !isPlanReviewOrAbsent(question['intent'], options)) return false
    if (mode === 'protocol' && !isSecretFlagOrAbsent(question['secret'], options)) return false
    if (options === undefined) continue
    if (!Array.isArray(options) || options.length > limits.optionsPerQuestion) return false
    for (const option of options) {
      if (!isRecord(option) || !isText(option['label'], max) || !isOptionalText(option['description'], max)) return false
    }
  }
  return true
}
