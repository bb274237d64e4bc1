import { isAskUserError } from '../shared/error-codes'

/**
 * A host's error class as upstream's seams construct theirs: `new (message, code, options)`, e.g.
 * `UserQuestionError` (rc.8, `@deepseek-ai/dsh-user-questions`) or `UserInteractionError` (seed era),
 * both `HarnessError` subclasses whose `name` and `code` the host's tool registry reads.
 */
export type HostErrorClass = new (message: string, code: string, options?: { cause?: unknown }) => Error

/**
 * The error to raise to the host: an {@link AskUserError} becomes an instance of `HostError` with the
 * same message and code (the original as its `cause`), so upstream's registry keeps `ASK_CANCELLED`,
 * `ASK_ABORTED`, `NO_PROVIDER`, … Anything else, and every error when no class is given, passes unchanged.
 */
export function toHostError(error: unknown, HostError: HostErrorClass | undefined): unknown {
  if (HostError === undefined || !isAskUserError(error)) return error
  return new HostError(error.message, error.code, { cause: error })
}

/** An error of any class that carries a stable UPPER_SNAKE `code` (upstream's `HarnessError`s do). */
export function codedError(error: unknown): (Error & { code: string }) | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined
  const { code } = error
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? Object.assign(error, { code }) : undefined
}
