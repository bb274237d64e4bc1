import type { Answer } from '../../shared/answer'
import type { Question } from '../../shared/tool-input'
import type { ApprovalDecision, ApprovalRequest, Notice } from './contract'

/** Who the hook speaks for, as the inbox shows it. */
export interface HookAgent {
  /** The harness's name, e.g. "Claude Code". */
  name: string
  /** The agent's working folder (from the event). */
  cwd?: string
  /** A short session label, so that two sessions of one harness are two agents. */
  title?: string
}

/**
 * What one harness event asks of the companion, and how the answer becomes the harness's stdout:
 * - `approve`: an approval card; `output` turns the decision into the exact stdout text, or
 *   undefined for "print nothing" (the harness then asks in its own way);
 * - `ask`: a question card (tool questions); `output` turns the answers into stdout text;
 * - `notice`: a fire-and-forget notice, nothing printed;
 * - `pass`: nothing to do for this event (nothing printed), with the reason for stderr.
 */
export type HookPlan =
  | { kind: 'approve'; request: ApprovalRequest; output: (decision: ApprovalDecision) => string | undefined }
  | { kind: 'ask'; questions: Question[]; output: (answers: Answer[]) => string | undefined }
  | { kind: 'notice'; notice: Notice }
  | { kind: 'pass'; reason: string }

/** One event, mapped: who asks and what. */
export interface HookWork {
  agent: HookAgent
  plan: HookPlan
}

/** The event is not what the harness documents: the hook prints nothing and says why on stderr. */
export class HookInputError extends Error {
  override readonly name = 'HookInputError'
}

/** The deny message when the person gave no reason. */
export const DEFAULT_DENY_MESSAGE = 'The user denied this in Ask User Companion.'

/** The longest text of a notice (the inbox shows one line; the rest is cut at a word boundary). */
const NOTICE_CHARS = 500

/** `text` cut to a notice's length at a word boundary, with an ellipsis when cut. */
export function noticeText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= NOTICE_CHARS) return flat
  const cut = flat.slice(0, NOTICE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${space > NOTICE_CHARS / 2 ? cut.slice(0, space) : cut}…`
}

/** A short session label from a harness's session id: "session 1a2b3c4d". */
export function sessionTitle(sessionId: string | undefined): string | undefined {
  return sessionId ? `session ${sessionId.slice(0, 8)}` : undefined
}

/** Pretty JSON of a tool's input, for the `tool` kind of approval. */
export function prettyInput(input: unknown): string {
  return JSON.stringify(input ?? null, null, 2) ?? 'null'
}
