// Codex: MCP set-up through `codex mcp add` plus config.toml keys it has no flag for, hooks in
// ~/.codex/hooks.json (PermissionRequest, Stop) and its `notify` program, askpass in
// [shell_environment_policy.set].
import { z } from 'zod'
import type { ApprovalAction, ApprovalDecision, ApprovalWarning } from '../shared/approval'
import { ASKPASS_MEMORY_NOTE } from './askpass'
import type { EventSource, Harness } from './harness'
import { BLOCKING_HOOK_TIMEOUT_SECONDS, hookStep, NOTICE_HOOK_TIMEOUT_SECONDS } from './hook-command'
import { BaseHookSchema, DEFAULT_DENY_MESSAGE, hookAgent, noticeText, parseEvent, prettyInput } from './hook-kit'
import type { HookWork } from './hook-work'
import { inputNotes, isOn, warning, type InputNotes } from './input-notes'
import { mcpLaunch, SERVER_NAME, TOOL_NAME, TOOL_TIMEOUT_SECONDS, type SetupPlan } from './setup-steps'

const NAME = 'Codex'
const CONFIG = '~/.codex/config.toml'

const PermissionRequestSchema = BaseHookSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const StopSchema = BaseHookSchema.extend({ last_assistant_message: z.string().nullish() })
const CommandInput = z.looseObject({
  command: z.union([z.string(), z.array(z.string())]),
  description: z.string().nullish(),
  workdir: z.string().optional(),
})

/** Codex's `notify` program argument (`agent-turn-complete`; kebab-case keys). */
const NotifySchema = z.looseObject({
  type: z.string(),
  cwd: z.string().optional(),
  'thread-id': z.string().optional(),
  'last-assistant-message': z.string().nullish(),
})

/** Codex asks to leave its sandbox with `sandbox_permissions: "require_escalated"` (older builds: `with_escalated_permissions: true`). */
function sandboxWarnings(input: Record<string, unknown>): ApprovalWarning[] {
  const escalated = input['sandbox_permissions'] === 'require_escalated' || isOn(input['with_escalated_permissions'])
  return escalated
    ? [warning('OUTSIDE_SANDBOX', "Runs outside Codex's sandbox (sandbox_permissions: require_escalated).")]
    : []
}

/**
 * A command (`command` as text or argv, `workdir` as its folder, else the event's cwd); every other
 * field (`justification`, `prefix_rule`, `timeout_ms`, …) goes to `extra`, and an escalation request
 * becomes a warning. Any other input is shown whole.
 */
function approval(tool: string, input: unknown, cwd: string | undefined): { action: ApprovalAction } & InputNotes {
  const command = CommandInput.safeParse(input)
  if (command.success) {
    const text = Array.isArray(command.data.command) ? command.data.command.join(' ') : command.data.command
    const where = command.data.workdir || cwd
    return {
      action: {
        kind: 'command',
        command: text,
        ...(command.data.description ? { description: command.data.description } : {}),
        ...(where ? { cwd: where } : {}),
      },
      ...inputNotes(input, ['command', 'description', 'workdir'], sandboxWarnings(command.data)),
    }
  }
  return { action: { kind: 'tool', input: prettyInput({ tool, input }) } }
}

/** Codex's PermissionRequest answer (codex-rs hooks `permission-request.command.output`). */
function permissionOutput(decision: ApprovalDecision): string {
  const wire =
    decision.behavior === 'allow'
      ? { behavior: 'allow' }
      : { behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: wire } })
}

/**
 * Maps a Codex hook event (stdin) or `notify` argument to the companion's work:
 * - `PermissionRequest` (`tool_name` "Bash", `tool_input {command, description?}`) → an approval with
 *   no "always" (Codex refuses `updatedPermissions` from a hook); Allow/Deny as Codex's decision wire;
 * - `Stop` → a "turn complete" notice;
 * - `notify` (`{"type":"agent-turn-complete", …}` as the program's last argument) → a notice.
 * Throws HookInputError for an event of the wrong shape.
 */
function codexEvent(event: unknown, from: EventSource): HookWork {
  if (from === 'argument') {
    const n = parseEvent(NotifySchema, event, 'not a Codex notify event')
    const agent = hookAgent(NAME, n.cwd, n['thread-id'])
    const last = n['last-assistant-message']?.trim()
    if (n.type !== 'agent-turn-complete')
      return { agent, plan: { kind: 'notice', notice: { kind: 'info', text: noticeText(`Codex: ${n.type}`) } } }
    return {
      agent,
      plan: {
        kind: 'notice',
        notice: { kind: 'turn-complete', text: last ? noticeText(last) : 'Codex finished its turn.' },
      },
    }
  }
  const base = parseEvent(BaseHookSchema, event, 'not a Codex hook event')
  const agent = hookAgent(NAME, base.cwd, base.session_id)
  switch (base.hook_event_name) {
    case 'PermissionRequest': {
      const e = parseEvent(PermissionRequestSchema, event, 'not a Codex PermissionRequest event')
      return {
        agent,
        plan: {
          kind: 'approve',
          request: { tool: e.tool_name, harness: 'codex', ...approval(e.tool_name, e.tool_input, e.cwd) },
          output: permissionOutput,
        },
      }
    }
    case 'Stop': {
      const e = StopSchema.safeParse(event)
      const last = e.success ? e.data.last_assistant_message?.trim() : undefined
      return {
        agent,
        plan: {
          kind: 'notice',
          notice: { kind: 'turn-complete', text: last ? noticeText(last) : 'Codex finished its turn.' },
        },
      }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
  }
}

/** Codex, as `ask-user setup`, `ask-user hook` and the Connect panel know it. */
export const codex = {
  id: 'codex',
  name: NAME,
  connectNote: 'noteCodex',
  published: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  mcp: (info): SetupPlan => {
    // Codex passes a filtered environment (hence env and env_vars), cuts tool calls after 60 s
    // (tool_timeout_sec) and `codex mcp add` has no flags for either.
    const { argv, command, args, env, envPairs } = mcpLaunch(info)
    return {
      steps: [
        {
          kind: 'run',
          argv: ['codex', 'mcp', 'add', SERVER_NAME, ...envPairs('--env'), '--', ...argv],
          remove: ['codex', 'mcp', 'remove', SERVER_NAME],
          entry: { file: CONFIG, path: ['mcp_servers', SERVER_NAME], value: { command, args, env } },
        },
        {
          kind: 'toml',
          file: CONFIG,
          table: `mcp_servers.${SERVER_NAME}`,
          keys: {
            env_vars: '["ASK_USER_URL", "ASK_USER_TOKEN_FILE", "ASK_USER_TOKEN"]',
            tool_timeout_sec: String(TOOL_TIMEOUT_SECONDS),
          },
        },
        {
          kind: 'toml',
          file: CONFIG,
          table: `mcp_servers.${SERVER_NAME}.tools.${TOOL_NAME}`,
          keys: { approval_mode: '"approve"' },
        },
      ],
      notes: [],
    }
  },
  hooks: {
    steps: (command) => [
      hookStep('~/.codex/hooks.json', 'PermissionRequest', command, BLOCKING_HOOK_TIMEOUT_SECONDS),
      hookStep('~/.codex/hooks.json', 'Stop', command, NOTICE_HOOK_TIMEOUT_SECONDS),
    ],
    notes: ['Codex runs a user hook only once you trust it: open /hooks in Codex and trust the ask-user hooks.'],
    map: codexEvent,
  },
  askpass: (variables) => ({
    steps: [
      {
        kind: 'toml',
        file: CONFIG,
        table: 'shell_environment_policy.set',
        keys: Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, JSON.stringify(value)])),
      },
    ],
    notes: [
      ASKPASS_MEMORY_NOTE,
      'Codex\'s sandbox may refuse sudo (no_new_privs) and loopback connections; see docs/integrations.md "Passwords (askpass)"',
    ],
  }),
} as const satisfies Harness
