import { z } from 'zod'

/**
 * Every error code a person, an agent or a model can see. Upstream's codes come first and keep their
 * meaning; the rest belong to the wire protocol and the UI channel.
 */
export const ErrorCodeSchema = z.enum([
  // upstream (@deepseek-ai/dsh-tool-ask-user and its seam)
  'INVALID_ARGS',
  'EMPTY_QUESTIONS',
  'NO_PROVIDER',
  'ASK_CANCELLED',
  'ASK_ABORTED',
  'DUPLICATE_PROVIDER',
  // wire protocol v1 and UI channel
  'INVALID_FRAME',
  'UNSUPPORTED_PROTOCOL',
  'NOT_PENDING',
  'LIMIT_EXCEEDED',
  'DUPLICATE_ID',
  'INVALID_ANSWER',
])
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

/**
 * A check's refusal: a stable code and a message that says what was wrong and what to do. The one
 * "not ok" shape of every check (review §3.7): `message` is the human text, never `reason`.
 */
export interface Refusal<C extends string = ErrorCode> {
  ok: false
  code: C
  message: string
}

/** The outcome of a check: the checked, typed value, or a {@link Refusal}. */
export type Result<T, C extends string = ErrorCode> = { ok: true; value: T } | Refusal<C>

/** The message upstream's wording implies for a dismissed ask. */
export const ASK_CANCELLED_MESSAGE = 'the user cancelled ask_user_question'

/**
 * A local error with a stable code. Thrown by the client library, the seam and the tool; never sent
 * over the wire as is (wire errors are `error` frames built from `code` and `message`).
 */
export class AskUserError extends Error {
  override readonly name = 'AskUserError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** True when `value` is an {@link AskUserError}, also across realms/bundles (checked by shape). */
export function isAskUserError(value: unknown): value is AskUserError {
  return (
    value instanceof AskUserError ||
    (value instanceof Error &&
      value.name === 'AskUserError' &&
      ErrorCodeSchema.safeParse((value as { code?: unknown }).code).success)
  )
}
