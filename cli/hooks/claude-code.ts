import { z } from 'zod'
import type { ApprovalDecision, Notice } from './contract'
import { alwaysLabel, claudeAction, PermissionSuggestionSchema } from './claude-permission'
import { ClaudeQuestionsInputSchema, toClaudeAnswers, toToolQuestions } from './claude-question'
import { DEFAULT_DENY_MESSAGE, HookInputError, noticeText, sessionTitle, type HookWork } from './plan'

/** The fields every Claude Code hook event carries (its `BaseHookInput`). */
const BaseSchema = z.looseObject({ session_id: z.string().optional(), cwd: z.string().optional(), hook_event_name: z.string() })

const PermissionRequestSchema = BaseSchema.extend({
  tool_name: z.string(),
  tool_input: z.unknown(),
  permission_suggestions: z.array(PermissionSuggestionSchema).optional(),
})
const RawSuggestionsSchema = z.looseObject({ permission_suggestions: z.array(z.unknown()).optional() })
const PreToolUseSchema = BaseSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const NotificationSchema = BaseSchema.extend({ message: z.string(), title: z.string().optional(), notification_type: z.string().optional() })
const StopSchema = BaseSchema.extend({ last_assistant_message: z.string().optional() })

function parsed<T>(schema: z.ZodType<T>, event: unknown, name: string): T {
  const result = schema.safeParse(event)
  if (!result.success) throw new HookInputError(`not a Claude Code ${name} event: ${result.error.issues[0]?.message ?? 'wrong shape'}`)
  return result.data
}

/** Claude's PermissionRequest answer: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":…}}`. */
function permissionOutput(decision: object): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })
}

/**
 * Maps one Claude Code hook event (the JSON on the hook's stdin) to the work for the companion:
 * - `PermissionRequest` → an approval; Allow → `decision:{behavior:"allow"}`, Always allow →
 *   `{behavior:"allow", updatedPermissions: <the permission_suggestions, verbatim>}`, Deny →
 *   `{behavior:"deny", message: <the person's reason>}`;
 * - `PreToolUse` of `AskUserQuestion` → a question ask; the answers go back as
 *   `permissionDecision:"allow"` with `updatedInput` = the tool input plus `answers`;
 * - `Notification` → a notice (`permission_prompt` passes: the approval card is already in the inbox);
 * - `Stop` → a "turn complete" notice. Any other event passes.
 * Throws {@link HookInputError} for an event of the wrong shape.
 */
export function claudeCodeHook(event: unknown): HookWork {
  const base = parsed(BaseSchema, event, 'hook')
  const agent = { name: 'Claude Code', ...(base.cwd ? { cwd: base.cwd } : {}), ...optionalTitle(sessionTitle(base.session_id)) }
  switch (base.hook_event_name) {
    case 'PermissionRequest': {
      const e = parsed(PermissionRequestSchema, event, 'PermissionRequest')
      const suggestions = e.permission_suggestions ?? []
      // Handed back verbatim (zod's parse puts declared keys first; Claude gets its own bytes back).
      const verbatim = RawSuggestionsSchema.parse(event).permission_suggestions ?? []
      return {
        agent,
        plan: {
          kind: 'approve',
          request: {
            tool: e.tool_name,
            harness: 'claude-code',
            ...(suggestions.length > 0 ? { always: { label: alwaysLabel(suggestions) } } : {}),
            ...claudeAction(e.tool_name, e.tool_input, e.cwd),
          },
          output: (decision: ApprovalDecision) =>
            decision.behavior === 'allow'
              ? permissionOutput(decision.always && suggestions.length > 0 ? { behavior: 'allow', updatedPermissions: verbatim } : { behavior: 'allow' })
              : permissionOutput({ behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE }),
        },
      }
    }
    case 'PreToolUse': {
      const e = parsed(PreToolUseSchema, event, 'PreToolUse')
      if (e.tool_name !== 'AskUserQuestion') return { agent, plan: { kind: 'pass', reason: `PreToolUse of ${e.tool_name} is not a question` } }
      const input = ClaudeQuestionsInputSchema.safeParse(e.tool_input)
      if (!input.success) throw new HookInputError(`AskUserQuestion input of an unknown shape: ${input.error.issues[0]?.message ?? 'wrong shape'}`)
      // The input goes back as Claude sent it, key order included, with `answers` added.
      const original = z.record(z.string(), z.unknown()).parse(e.tool_input)
      return {
        agent,
        plan: {
          kind: 'ask',
          questions: toToolQuestions(input.data),
          output: (answers) =>
            JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'allow',
                updatedInput: { ...original, answers: toClaudeAnswers(input.data, answers) },
              },
            }),
        },
      }
    }
    case 'Notification': {
      const e = parsed(NotificationSchema, event, 'Notification')
      if (e.notification_type === 'permission_prompt') return { agent, plan: { kind: 'pass', reason: 'the permission prompt is already in the inbox as an approval' } }
      const kind: Notice['kind'] = e.notification_type === 'idle_prompt' || e.notification_type === 'agent_needs_input' ? 'needs-input' : 'info'
      return { agent, plan: { kind: 'notice', notice: { kind, text: noticeText(e.message) } } }
    }
    case 'Stop': {
      const e = parsed(StopSchema, event, 'Stop')
      const text = e.last_assistant_message?.trim() ? noticeText(e.last_assistant_message) : 'Claude Code finished its turn.'
      return { agent, plan: { kind: 'notice', notice: { kind: 'turn-complete', text } } }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
  }
}

function optionalTitle(title: string | undefined): { title?: string } {
  return title === undefined ? {} : { title }
}
