// Claude Code's `mcp_tool` hooks: instead of spawning `ask-user hook claude-code` per event, Claude
// calls a tool of the `ask-user` MCP server it already runs. Claude hands a hook tool only the `input`
// the hook names, each `${field}` replaced by that field of the event (an object or array as its JSON
// text, an absent field as ""), so the input below names every field of the events we answer and the
// tool puts the event back together before the one mapping (claude-code.ts) reads it.
import { z } from 'zod'
import type { HookWork } from '../hook-work'
import { warning } from '../input-notes'

/**
 * The fields of Claude's PermissionRequest and PreToolUse events (2.1.332) and how each arrives:
 * `text` as itself, `json` as the JSON text of an object or array.
 */
const EVENT_FIELDS = {
  hook_event_name: 'text',
  session_id: 'text',
  transcript_path: 'text',
  cwd: 'text',
  prompt_id: 'text',
  permission_mode: 'text',
  agent_id: 'text',
  agent_type: 'text',
  tool_name: 'text',
  tool_use_id: 'text',
  tool_input: 'json',
  permission_suggestions: 'json',
  mcp_server: 'json',
  effort: 'json',
} as const satisfies Record<string, 'text' | 'json'>

/** The hook tool's arguments: every event field as text, as Claude's substitution produces it. */
export const HookToolArgumentsSchema = z.object(
  Object.fromEntries(Object.keys(EVENT_FIELDS).map((field) => [field, z.string().optional()])) as Record<
    keyof typeof EVENT_FIELDS,
    z.ZodOptional<z.ZodString>
  >,
)

/** The hook tool's JSON Schema as `tools/list` shows it (for a client that validates hook input). */
export function hookToolInputSchema(): { type: 'object'; properties: Record<string, { type: 'string' }> } {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.keys(EVENT_FIELDS).map((field) => [field, { type: 'string' as const }])),
  }
}

/** The `input` of an `mcp_tool` hook handler: `{"<field>": "${<field>}"}` for every event field. */
export function hookToolInput(): Record<string, string> {
  return Object.fromEntries(Object.keys(EVENT_FIELDS).map((field) => [field, `\${${field}}`]))
}

/**
 * The event the hook saw, from the tool's arguments: empty fields (absent from the event) left out,
 * JSON fields parsed back. Throws SyntaxError for a JSON field that is not JSON.
 */
export function eventFromHookTool(args: z.infer<typeof HookToolArgumentsSchema>): Record<string, unknown> {
  const event: Record<string, unknown> = {}
  for (const [field, kind] of Object.entries(EVENT_FIELDS)) {
    const value = args[field as keyof typeof EVENT_FIELDS]
    if (value === undefined || value === '') continue
    event[field] = kind === 'json' ? (JSON.parse(value) as unknown) : value
  }
  return event
}

/** How the inbox marks an ask that reached the hook tool from the model rather than from a hook. */
export const ASKED_BY_MODEL = 'asked by the model'

/**
 * True when a call of the hook tool came from the model: Claude's calls for the model carry
 * `_meta["claudecode/toolUseId"]` and a progress token; its hook calls carry neither. On MCP 2026-07-28
 * both carry the revision's own `_meta` (protocol version, client info and capabilities), so only
 * these two keys tell them apart (recorded from Claude Code 2.1.332 by claude-binary.test.ts).
 */
export function calledByModel(meta: Record<string, unknown> | undefined): boolean {
  return meta !== undefined && (meta['claudecode/toolUseId'] !== undefined || meta['progressToken'] !== undefined)
}

/**
 * `work` marked as the model's: the agent's title says {@link ASKED_BY_MODEL}, and an approval carries
 * an `ASKED_BY_MODEL` warning (registered in shared/approval.ts: windows show their own words), since what
 * the person allows there is only the model's say-so, not a prompt of Claude Code's.
 */
export function markAskedByModel(work: HookWork): HookWork {
  const agent = { ...work.agent, title: ASKED_BY_MODEL }
  if (work.plan.kind !== 'approve') return { agent, plan: work.plan }
  const byModel = warning(
    'ASKED_BY_MODEL',
    'The model sent this through the hook tool: Claude Code did not ask it, and your answer goes back to the model only.',
  )
  const request = { ...work.plan.request, warnings: [...(work.plan.request.warnings ?? []), byModel] }
  return { agent, plan: { ...work.plan, request } }
}
