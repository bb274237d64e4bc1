import { AskUserError } from '../shared/error-codes'
import { UNCAPPED_LIMITS, type Limits } from '../shared/limits'
import { validateAskInput, type ValidatedAsk } from '../shared/validate-input'

/**
 * Validates ask arguments `{questions}` from a program (not a model: for a model's tool arguments the
 * tool boundary uses `validateToolInput`, which drops `detail` and `intent`) where they enter the agent
 * side, once, and returns them as a {@link ValidatedAsk} for {@link AskUserClient.ask}. Questions may
 * carry `detail` and `intent` (`validateAskInput`). By default it checks shape and emptiness only:
 * the companion owns the caps (its settings may raise them) and answers `LIMIT_EXCEEDED` itself.
 * Throws an {@link AskUserError}: `INVALID_ARGS` (upstream's `invalid arguments: ...` wording),
 * `EMPTY_QUESTIONS`, or `LIMIT_EXCEEDED` when `limits` are given.
 *
 * ```ts
 * const answer = await client.ask(validateAsk({ questions: [{ id: 'go', question: 'Deploy now?' }] }))
 * ```
 */
export function validateAsk(args: unknown, limits: Limits = UNCAPPED_LIMITS): ValidatedAsk {
  const check = validateAskInput(args, limits)
  if (!check.ok) throw new AskUserError(check.code, check.message)
  return check.value
}
