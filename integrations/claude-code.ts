// Claude Code: MCP set-up through `claude mcp add-json`, hooks in ~/.claude/settings.json
// (PermissionRequest and PreToolUse of AskUserQuestion through the MCP server's hook tool,
// claude-code/hook-tool.ts; Notification and Stop as commands), askpass in its `env`.
import { z } from 'zod'
import type { ApprovalDecision, Notice } from '../shared/approval'
import { ASKPASS_MEMORY_NOTE } from './askpass'
import { alwaysLabel, claudeAction, PermissionSuggestionSchema } from './claude-code/permission'
import { ClaudeQuestionsInputSchema, toClaudeAnswers } from './claude-code/question'
import type { Harness } from './harness'
import { BESIDE_DIALOG_HOOK_TIMEOUT_SECONDS, hookStep, NOTICE_HOOK_TIMEOUT_SECONDS } from './hook-command'
import { BaseHookSchema, DEFAULT_DENY_MESSAGE, hookAgent, noticeText, parseEvent, toToolQuestions } from './hook-kit'
import type { HookWork } from './hook-work'
import { mcpLaunch, SERVER_NAME, TOOL_NAME, type SetupPlan, type SetupStep } from './setup-steps'
import { hookToolInput } from './claude-code/hook-tool'
import { HOOK_TOOL_DENY_RULE, HOOK_TOOL_FLAG, HOOK_TOOL_NAME } from './claude-code/hook-tool-names'

const NAME = 'Claude Code'
const SETTINGS = '~/.claude/settings.json'

const PermissionRequestSchema = BaseHookSchema.extend({
  tool_name: z.string(),
  tool_input: z.unknown(),
  permission_suggestions: z.array(PermissionSuggestionSchema).optional(),
})
const RawSuggestionsSchema = z.looseObject({ permission_suggestions: z.array(z.unknown()).optional() })
const PreToolUseSchema = BaseHookSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const NotificationSchema = BaseHookSchema.extend({
  message: z.string(),
  title: z.string().optional(),
  notification_type: z.string().optional(),
})
const StopSchema = BaseHookSchema.extend({ last_assistant_message: z.string().optional() })

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
 * Throws HookInputError for an event of the wrong shape.
 */
function claudeCodeEvent(event: unknown): HookWork {
  const base = parseEvent(BaseHookSchema, event, `not a ${NAME} hook event`)
  const agent = hookAgent(NAME, base.cwd, base.session_id)
  switch (base.hook_event_name) {
    case 'PermissionRequest': {
      const e = parseEvent(PermissionRequestSchema, event, `not a ${NAME} PermissionRequest event`)
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
              ? permissionOutput(
                  decision.always && suggestions.length > 0
                    ? { behavior: 'allow', updatedPermissions: verbatim }
                    : { behavior: 'allow' },
                )
              : permissionOutput({ behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE }),
        },
      }
    }
    case 'PreToolUse': {
      const e = parseEvent(PreToolUseSchema, event, `not a ${NAME} PreToolUse event`)
      if (e.tool_name !== 'AskUserQuestion')
        return { agent, plan: { kind: 'pass', reason: `PreToolUse of ${e.tool_name} is not a question` } }
      const input = parseEvent(ClaudeQuestionsInputSchema, e.tool_input, 'AskUserQuestion input of an unknown shape')
      // The input goes back as Claude sent it, key order included, with `answers` added.
      const original = z.record(z.string(), z.unknown()).parse(e.tool_input)
      return {
        agent,
        plan: {
          kind: 'ask',
          questions: toToolQuestions(input.questions.map((q) => ({ ...q, multi: q.multiSelect }))),
          output: (answers) =>
            JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'allow',
                updatedInput: { ...original, answers: toClaudeAnswers(input, answers) },
              },
            }),
        },
      }
    }
    case 'Notification': {
      const e = parseEvent(NotificationSchema, event, `not a ${NAME} Notification event`)
      if (e.notification_type === 'permission_prompt')
        return { agent, plan: { kind: 'pass', reason: 'the permission prompt is already in the inbox as an approval' } }
      const kind: Notice['kind'] =
        e.notification_type === 'idle_prompt' || e.notification_type === 'agent_needs_input' ? 'needs-input' : 'info'
      return { agent, plan: { kind: 'notice', notice: { kind, text: noticeText(e.message) } } }
    }
    case 'Stop': {
      const e = parseEvent(StopSchema, event, `not a ${NAME} Stop event`)
      const text = e.last_assistant_message?.trim()
        ? noticeText(e.last_assistant_message)
        : 'Claude Code finished its turn.'
      return { agent, plan: { kind: 'notice', notice: { kind: 'turn-complete', text } } }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
  }
}

/** A hook group calling the hook tool of our MCP server, which waits beside Claude's own dialog. */
function mcpToolHookStep(event: string, matcher: string): SetupStep {
  const handler = {
    type: 'mcp_tool' as const,
    server: SERVER_NAME,
    tool: HOOK_TOOL_NAME,
    input: hookToolInput(),
    timeout: BESIDE_DIALOG_HOOK_TIMEOUT_SECONDS,
  }
  return { kind: 'hook', file: SETTINGS, event, matcher, handler }
}

/** Claude Code, as `ask-user setup`, `ask-user hook` and the Connect panel know it. */
export const claudeCode = {
  id: 'claude-code',
  name: NAME,
  connectNote: 'noteClaudeCode',
  published: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  mcp: (info, options): SetupPlan => {
    // add-json at user scope writes ~/.claude.json. No timeout key: Claude's own limit (1e8 ms,
    // about 28 h) is longer than any we would set, and a per-server value would replace it.
    // With --hooks the server also serves the hook tool its `mcp_tool` hooks call.
    const { command, args: launchArgs, env } = mcpLaunch(info)
    const args = options?.hooks === true ? [...launchArgs, HOOK_TOOL_FLAG] : launchArgs
    const entry = { type: 'stdio', command, args, env }
    return {
      steps: [
        {
          kind: 'run',
          argv: ['claude', 'mcp', 'add-json', '--scope', 'user', SERVER_NAME, JSON.stringify(entry)],
          remove: ['claude', 'mcp', 'remove', '--scope', 'user', SERVER_NAME],
          entry: { file: '~/.claude.json', path: ['mcpServers', SERVER_NAME], value: entry },
        },
        {
          kind: 'json-item',
          file: SETTINGS,
          path: ['permissions', 'allow'],
          item: `mcp__${SERVER_NAME}__${TOOL_NAME}`,
        },
      ],
      notes: [],
    }
  },
  hooks: {
    // The two events that wait for the person call the hook tool of the running MCP server (no
    // process per event); a deny rule hides that tool from the model, and a hook's call skips
    // permission rules. Notices stay command hooks: Claude refuses a server call for a Notification
    // a background session may have fired.
    steps: (command) => [
      mcpToolHookStep('PermissionRequest', '*'),
      mcpToolHookStep('PreToolUse', 'AskUserQuestion'),
      { kind: 'json-item', file: SETTINGS, path: ['permissions', 'deny'], item: HOOK_TOOL_DENY_RULE },
      hookStep(SETTINGS, 'Notification', command, NOTICE_HOOK_TIMEOUT_SECONDS),
      hookStep(SETTINGS, 'Stop', command, NOTICE_HOOK_TIMEOUT_SECONDS),
    ],
    notes: [],
    map: (event) => claudeCodeEvent(event),
  },
  askpass: (variables) => ({
    steps: Object.entries(variables).map(([key, value]) => ({
      kind: 'json' as const,
      file: SETTINGS,
      path: ['env', key],
      value,
    })),
    notes: [ASKPASS_MEMORY_NOTE],
  }),
} as const satisfies Harness
