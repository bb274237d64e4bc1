import type { z } from 'zod'
import { describeArgumentIssues, invalidArgumentsMessage } from './argument-errors'
import type { ErrorCode } from './error-codes'
import { checkLimits } from './limits-check'
import { DEFAULT_LIMITS, type Limits } from './limits'
import { AskUserQuestionInputSchema } from './tool-input'

/**
 * The tool input schema with a brand on its output: parsing with it is how {@link validateToolInput}
 * (and nothing else: it is not exported) makes a {@link ValidatedAsk}.
 */
const ValidatedAskSchema = AskUserQuestionInputSchema.brand<'ValidatedAsk'>()

/**
 * Tool arguments `{questions}` that {@link validateToolInput} accepted: the right shape, at least one
 * question, within the caps it was given. Only that function makes one, so code that takes a
 * `ValidatedAsk` (the agent's client and connection) has nothing left to check. Extra keys stay.
 */
export type ValidatedAsk = z.infer<typeof ValidatedAskSchema>

/** The outcome of {@link validateToolInput}: a {@link ValidatedAsk}, or the code and message of the refusal. */
export type InputCheck =
  | { ok: true; input: ValidatedAsk }
  | { ok: false; code: Extract<ErrorCode, 'INVALID_ARGS' | 'EMPTY_QUESTIONS' | 'LIMIT_EXCEEDED'>; message: string }

/** The message for an ask with no questions (code `EMPTY_QUESTIONS`). */
export const EMPTY_QUESTIONS_MESSAGE = 'ask_user_question needs at least one question; "questions" was empty'

/**
 * Validates untrusted tool arguments in upstream's order: shape (`INVALID_ARGS`), then an empty batch
 * (`EMPTY_QUESTIONS`), then our caps (`LIMIT_EXCEEDED`). Never throws. A valid input comes back as
 * the same object, typed {@link ValidatedAsk}. Run it once where arguments enter a process.
 */
export function validateToolInput(args: unknown, limits: Limits = DEFAULT_LIMITS): InputCheck {
  // Hot path: a well-formed ask within the caps is accepted without zod's copy of every object.
  if (isWellFormedWithinLimits(args, limits)) return { ok: true, input: args }
  const parsed = ValidatedAskSchema.safeParse(args)
  if (!parsed.success) {
    return {
      ok: false,
      code: 'INVALID_ARGS',
      message: invalidArgumentsMessage(describeArgumentIssues(args, parsed.error.issues)),
    }
  }
  if (parsed.data.questions.length === 0) {
    return { ok: false, code: 'EMPTY_QUESTIONS', message: EMPTY_QUESTIONS_MESSAGE }
  }
  const overflows = checkLimits(parsed.data, limits)
  if (overflows.length > 0) {
    return { ok: false, code: 'LIMIT_EXCEEDED', message: `limit exceeded: ${overflows.join('; ')}` }
  }
  return { ok: true, input: parsed.data }
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max
const isOptionalText = (value: unknown, max: number): boolean => value === undefined || isText(value, max)
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The common case, checked by hand: the schema's shape (extra keys allowed) with at least one question
 * and every cap respected. Anything else goes through zod, which words the errors; the two must agree
 * on what is valid (tested by a property test).
 */
function isWellFormedWithinLimits(args: unknown, limits: Limits): args is ValidatedAsk {
  if (!isRecord(args)) return false
  const questions = args['questions']
  if (!Array.isArray(questions) || questions.length === 0 || questions.length > limits.questionsPerAsk) return false
  const max = limits.textChars
  for (const question of questions) {
    if (!isRecord(question)) return false
    if (!isText(question['id'], max) || !isText(question['question'], max)) return false
    if (!isOptionalText(question['header'], max)) return false
    const multi = question['multi_select']
    if (multi !== undefined && typeof multi !== 'boolean') return false
    const options = question['options']
    if (options === undefined) continue
    if (!Array.isArray(options) || options.length > limits.optionsPerQuestion) return false
    for (const option of options) {
      if (!isRecord(option) || !isText(option['label'], max) || !isOptionalText(option['description'], max)) return false
    }
  }
  return true
}
