import { AskUserError, isAskUserError, type ErrorCode } from '../shared/error-codes'
import { errorMessage } from '../shared/describe-error'
import { codedError } from './host-errors'

/** One text block of a tool result (the only block kind this tool produces). */
export interface TextContent {
  type: 'text'
  text: string
}

/** A successful tool call: one text block holding the canonical answer JSON. */
export interface ToolSuccess {
  isError: false
  content: [TextContent]
}

/**
 * A failed tool call: one text block `Error: <message>`, plus the error's name and stable code (one
 * of ours, or a host seam's own, such as upstream's `CALLER_NOT_LIVE`).
 */
export interface ToolFailure {
  isError: true
  content: [TextContent]
  error: { name: string; code: ErrorCode | (string & {}) }
}

export type ToolResult = ToolSuccess | ToolFailure

/** A successful result carrying `text`. */
export function toolSuccess(text: string): ToolSuccess {
  return { isError: false, content: [{ type: 'text', text }] }
}

/**
 * Turns anything thrown into a failed result. An {@link AskUserError}, or any error carrying an
 * UPPER_SNAKE `code` (a host seam's `HarnessError`, e.g. upstream's `UserQuestionError`), keeps its
 * name, message and code; anything else is reported with the code `NO_PROVIDER` (the answering side
 * failed in a way it did not describe).
 */
export function toolFailure(error: unknown): ToolFailure {
  const known = isAskUserError(error)
    ? error
    : (codedError(error) ?? new AskUserError('NO_PROVIDER', `the answering side failed: ${errorMessage(error)}`))
  return {
    isError: true,
    content: [{ type: 'text', text: `Error: ${known.message}` }],
    error: { name: known.name, code: known.code },
  }
}
