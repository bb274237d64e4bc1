import { z } from 'zod'
import { inspectUrl } from './markdown/url-gate'

/**
 * An approval: an agent asks the person whether it may do one thing (a harness's permission prompt).
 * The person allows it once, always (where the harness can remember the choice), or denies it with an
 * optional reason that goes back to the agent. Nothing here is ever rendered as HTML: commands, diffs,
 * URLs and tool input are shown as text; only a `plan` goes through the block Markdown renderer.
 */

/**
 * Longest `command`, `diff`, `content`, `plan` or `input` accepted (characters), inside the 1 MiB
 * frame; every other text field has the `textChars` cap. Longer is refused `LIMIT_EXCEEDED`
 * (checked by validateApproval, not by the schema, so the code says "too long", not "malformed").
 */
export const APPROVAL_BODY_CHARS = 200_000

const body = z.string()

/** What the agent will do, as its harness describes it. */
export const ApprovalActionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    command: body.min(1),
    description: z.string().optional(),
    cwd: z.string().optional(),
  }),
  z.object({
    kind: z.literal('file'),
    path: z.string().min(1),
    operation: z.enum(['edit', 'write', 'delete', 'read']).optional(),
    /** A unified-style diff, shown as text. */
    diff: body.optional(),
    /** The whole new content (a write), shown as text. */
    content: body.optional(),
  }),
  z.object({ kind: z.literal('url'), url: z.string().min(1) }),
  /** A plan to approve before the agent acts on it (Claude Code's ExitPlanMode): Markdown. */
  z.object({ kind: z.literal('plan'), plan: body.min(1) }),
  /** Any other tool: its input as pretty-printed JSON text. */
  z.object({ kind: z.literal('tool'), input: body }),
])
export type ApprovalAction = z.infer<typeof ApprovalActionSchema>

/**
 * Warnings a hook raises for flags of a tool's input that change what is allowed, beyond the ordinary
 * case the card's body shows. A window shows its own words for a known code and the `message` for any
 * other (a newer hook's code), so the list may grow without a protocol change.
 */
export const APPROVAL_WARNING_CODES = [
  /** The command runs outside the harness's sandbox (Claude `dangerouslyDisableSandbox`, Codex `sandbox_permissions: "require_escalated"`). */
  'OUTSIDE_SANDBOX',
  /** The command keeps running in the background after the approval (Claude `run_in_background`, Gemini `is_background`). */
  'RUNS_IN_BACKGROUND',
  /** The edit replaces every match in the file, not one (Claude `replace_all`, Gemini `allow_multiple` / `expected_replacements` > 1). */
  'REPLACES_EVERY_MATCH',
  /** The model, not the harness, sent this approval (Claude Code's hook tool called by the model): allowing it reaches only the model. */
  'ASKED_BY_MODEL',
] as const
export type ApprovalWarningCode = (typeof APPROVAL_WARNING_CODES)[number]

/** Most warnings one request may carry. */
export const APPROVAL_WARNINGS_MAX = 16

/** One warning: a stable UPPER_SNAKE code and an English sentence for windows that do not know the code. */
export const ApprovalWarningSchema = z.object({
  code: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'an UPPER_SNAKE code'),
  message: z.string().min(1),
})
export type ApprovalWarning = z.infer<typeof ApprovalWarningSchema>

/** One approval request. `always` is offered only when the harness can remember the choice. */
export const ApprovalRequestSchema = z.object({
  /** The harness's tool name, e.g. `Bash`, `Edit`, `shell`. */
  tool: z.string().min(1),
  action: ApprovalActionSchema,
  /** Which harness asks (`claude-code`, `codex`, `gemini`, `opencode`, …). */
  harness: z.string().optional(),
  /** What "Always allow" would remember, in the harness's terms (e.g. "Bash(npm test:*) in this project"). */
  always: z.object({ label: z.string().min(1) }).optional(),
  /**
   * The fields of the tool's input the action does not show (Claude's `timeout`, Codex's `prefix_rule`,
   * any field a harness adds later), as pretty JSON; long values are cut with a visible marker
   * (see shared/approval-extra.ts). Absent when the action shows the whole input.
   */
  extra: z.string().min(1).optional(),
  /** Flags of the input that widen what is allowed (see {@link APPROVAL_WARNING_CODES}); shown above the action. */
  warnings: z.array(ApprovalWarningSchema).max(APPROVAL_WARNINGS_MAX).optional(),
})
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>

/** The person's decision. `always` only where the request offered it. */
export const ApprovalDecisionSchema = z.discriminatedUnion('behavior', [
  z.object({ behavior: z.literal('allow'), always: z.literal(true).optional() }),
  z.object({ behavior: z.literal('deny'), message: z.string().optional() }),
])
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>

/** Text fields of a request capped by `limits.textChars` (the long bodies have {@link APPROVAL_BODY_CHARS}). */
export function approvalShortFields(request: ApprovalRequest): Array<[string, string]> {
  const fields: Array<[string, string]> = [['tool', request.tool]]
  if (request.harness !== undefined) fields.push(['harness', request.harness])
  if (request.always !== undefined) fields.push(['always.label', request.always.label])
  request.warnings?.forEach((warning, index) => fields.push([`warnings[${index}].message`, warning.message]))
  const action = request.action
  if (action.kind === 'command') {
    if (action.description !== undefined) fields.push(['action.description', action.description])
    if (action.cwd !== undefined) fields.push(['action.cwd', action.cwd])
  }
  if (action.kind === 'file') fields.push(['action.path', action.path])
  if (action.kind === 'url') fields.push(['action.url', action.url])
  return fields
}

/** Why a decision does not fit its request, or undefined when it does. */
export function decisionProblem(request: ApprovalRequest, decision: ApprovalDecision): string | undefined {
  if (decision.behavior === 'allow' && decision.always === true && request.always === undefined) {
    return 'this approval offers no "always allow"; allow once or deny'
  }
  return undefined
}

/** The long bodies of a request (capped by {@link APPROVAL_BODY_CHARS}). */
export function approvalBodyFields(request: ApprovalRequest): Array<[string, string]> {
  const extra: Array<[string, string]> = request.extra !== undefined ? [['extra', request.extra]] : []
  return [...actionBodyFields(request.action), ...extra]
}

function actionBodyFields(action: ApprovalAction): Array<[string, string]> {
  switch (action.kind) {
    case 'command':
      return [['action.command', action.command]]
    case 'file':
      return [
        ...(action.diff !== undefined ? [['action.diff', action.diff] as [string, string]] : []),
        ...(action.content !== undefined ? [['action.content', action.content] as [string, string]] : []),
      ]
    case 'plan':
      return [['action.plan', action.plan]]
    case 'tool':
      return [['action.input', action.input]]
    case 'url':
      return []
  }
}

/** One line that says what the agent wants (notifications, tray, history summaries). */
export function approvalSummary(request: ApprovalRequest): string {
  const action = request.action
  switch (action.kind) {
    case 'command':
      return `run: ${action.command}`
    case 'file':
      return `${action.operation ?? 'edit'} ${action.path}`
    case 'url':
      return `fetch ${urlLead(action.url)}`
    case 'plan':
      return 'approve a plan'
    case 'tool':
      return `use ${request.tool}`
  }
}

/** A URL for one line of text: its real host first (punycode), then the URL as sent. */
function urlLead(url: string): string {
  const view = inspectUrl(url)
  return view.parsed && view.host !== '' ? `${view.host} (${url})` : url
}

/** "Claude Code wants to run: npm test": one line for notifications and the tray (whitespace collapsed). */
export function approvalLine(agentName: string, request: ApprovalRequest): string {
  return `${agentName} wants to ${approvalSummary(request)}`.replace(/\s+/g, ' ').trim()
}

/** A notice: the agent tells the person something (it waits for input, its turn ended); nothing to answer. */
export const NoticeSchema = z.object({
  kind: z.enum(['needs-input', 'turn-complete', 'info']),
  text: z.string().min(1),
})
export type Notice = z.infer<typeof NoticeSchema>
