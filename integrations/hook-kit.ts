// What the harness mappings share: the hook event's common fields, the one parse-or-refuse, who the
// agent is, the question and notice shapes. Each harness file keeps only what is its own.
import { z } from 'zod'
import { describeFirstIssue } from '../shared/issue-wording'
import type { Question } from '../shared/tool-input'
import { SESSION_CHARS } from '../shared/wire'
import { HookInputError, type HookAgent } from './hook-work'

/** The fields every Claude-style hook event carries (Claude Code's `BaseHookInput`; Codex and Gemini CLI copy it). */
export const BaseHookSchema = z.looseObject({
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  hook_event_name: z.string(),
})

/**
 * `event` parsed by `schema`, or {@link HookInputError} `"<what>: <the first issue, in our words>"`, e.g.
 * `parseEvent(schema, event, 'not a Codex hook event')`.
 */
export function parseEvent<T>(schema: z.ZodType<T>, event: unknown, what: string): T {
  const result = schema.safeParse(event)
  if (!result.success)
    throw new HookInputError(`${what}: ${describeFirstIssue(event, result.error.issues, 'wrong shape')}`)
  return result.data
}

/** The deny message when the person gave no reason. */
export const DEFAULT_DENY_MESSAGE = 'The user denied this in Ask User Companion.'

/** A short session label from a harness's session id: "session 1a2b3c4d". */
export function sessionTitle(sessionId: string | undefined): string | undefined {
  return sessionId ? `session ${sessionId.slice(0, 8)}` : undefined
}

/** `{title}` when there is one, else nothing: spread into an object that must not carry `title: undefined`. */
export function titled(title: string | undefined): { title?: string } {
  return title === undefined ? {} : { title }
}

/**
 * Who asks, as the inbox shows it: the harness's display name, the event's folder and its session
 * (the id itself, which groups every call of the session, and a short label of it to show).
 */
export function hookAgent(name: string, cwd: string | undefined, sessionId: string | undefined): HookAgent {
  return {
    name,
    ...(cwd ? { cwd } : {}),
    ...titled(sessionTitle(sessionId)),
    ...(sessionId ? { session: sessionId.slice(0, SESSION_CHARS) } : {}),
  }
}

/** One question as a harness's own question tool sends it (Claude's `multiSelect`, opencode's `multiple`, as `multi`). */
export interface HarnessQuestion {
  question: string
  header?: string | undefined
  options: readonly { label: string; description?: string | undefined }[]
  multi?: boolean | undefined
}

/** Our question ids for a harness's questions: `q1`, `q2`, … by position (theirs have no ids). */
export function questionId(index: number): string {
  return `q${index + 1}`
}

/** A harness's questions as tool questions: ids by position, an empty header left out, descriptions kept. */
export function toToolQuestions(questions: readonly HarnessQuestion[]): Question[] {
  return questions.map((q, index) => {
    const out: Question = { id: questionId(index), question: q.question }
    if (q.header !== undefined && q.header !== '') out.header = q.header
    out.options = q.options.map((option) =>
      option.description !== undefined
        ? { label: option.label, description: option.description }
        : { label: option.label },
    )
    if (q.multi === true) out.multi_select = true
    return out
  })
}

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

/** Pretty JSON of a tool's input, for the `tool` kind of approval. */
export function prettyInput(input: unknown): string {
  return JSON.stringify(input ?? null, null, 2) ?? 'null'
}
