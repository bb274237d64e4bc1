// One wording for a command's bad arguments, whichever parser found them (node:util's parseArgs or ours).
import { closestName } from './closest-name'

/**
 * The message for an option `command` does not know: `unknown option '--questoin'; did you mean
 * --question?` when one of `known` (the long names, without dashes) is a likely typo, else the pointer to
 * the command's help. Lower-case like "unknown command".
 */
export function unknownOption(option: string, known: readonly string[], command: string): string {
  const guess = option.startsWith('--') ? closestName(option.slice(2).split('=')[0]!, known) : undefined
  return guess !== undefined
    ? `unknown option '${option}'; did you mean --${guess}?`
    : `unknown option '${option}'; run \`ask-user ${command} --help\``
}

/**
 * The message for an error thrown by `parseArgs` for `command` with the options `known`: node's
 * sentences in the CLI's words (lower-case, quoted like the rest), ending with what to do.
 */
export function argumentError(error: unknown, known: readonly string[], command: string): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  const named = /'([^']*)'/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && named !== undefined) return unknownOption(named, known, command)
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && named !== undefined)
    return `unexpected argument "${named}"; run \`ask-user ${command} --help\``
  const sentence = message.charAt(0).toLowerCase() + message.slice(1)
  return `${sentence}; run \`ask-user ${command} --help\``
}
