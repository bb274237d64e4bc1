import { abortReason } from '../../agent/errors'
import { isAskUserError } from '../../shared/error-codes'
import { EXIT } from '../io'

/**
 * The exit code for an error of an ask: 2 invalid input, 3 dismissed, 4 no companion or it went away,
 * 124 timed out, 130 interrupted, 1 anything else (a companion that broke the protocol, a bug).
 */
export function exitCodeFor(error: unknown): number {
  if (!isAskUserError(error)) return 1
  switch (error.code) {
    case 'INVALID_ARGS':
    case 'EMPTY_QUESTIONS':
    case 'LIMIT_EXCEEDED':
      return EXIT.INVALID_INPUT
    case 'ASK_CANCELLED':
      return EXIT.DISMISSED
    case 'NO_PROVIDER':
      return EXIT.NO_COMPANION
    case 'ASK_ABORTED': {
      const reason = abortReason(error)
      if (reason === 'timeout') return EXIT.TIMED_OUT
      if (reason === 'connection-lost') return EXIT.NO_COMPANION
      return EXIT.INTERRUPTED
    }
    default:
      return 1
  }
}
