import { describeArgumentIssues, invalidArgumentsMessage } from './argument-errors'
import type { ErrorCode } from './error-codes'
import { checkLimits } from './limits-check'
import { DEFAULT_LIMITS, type Limits } from './limits'
import { AskUserQuestionInputSchema, type AskUserQuestionInput } from './tool-input'

export type InputCheck =
  | { ok: true; input: AskUserQuestionInput }
  | { ok: false; code: Extract<ErrorCode, 'INVALID_ARGS' | 'EMPTY_QUESTIONS' | 'LIMIT_EXCEEDED'>; message: string }

/** The message for an ask with no questions (code `EMPTY_QUESTIONS`). */
export const EMPTY_QUESTIONS_MESSAGE = 'ask_user_question needs at least one question; "questions" was empty'

/**
 * Validates untrusted tool arguments in upstream's order: shape (`INVALID_ARGS`), then an empty batch
 * (`EMPTY_QUESTIONS`), then our caps (`LIMIT_EXCEEDED`). Never throws.
 */
export function validateToolInput(args: unknown, limits: Limits = DEFAULT_LIMITS): InputCheck {
  const parsed = AskUserQuestionInputSchema.safeParse(args)
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
