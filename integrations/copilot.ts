// GitHub Copilot CLI: MCP set-up through `copilot mcp add` (user level, ~/.copilot/mcp-config.json,
// a day of timeout), hooks in the `hooks` of its user settings (~/.copilot/settings.json):
// PermissionRequest and Stop. No askpass setting.
import { z } from 'zod'
import type { ApprovalAction, ApprovalDecision } from '../shared/approval'
import type { Harness } from './harness'
import { BLOCKING_HOOK_TIMEOUT_SECONDS, hookStep, NOTICE_HOOK_TIMEOUT_SECONDS } from './hook-command'
import { BaseHookSchema, DEFAULT_DENY_MESSAGE, hookAgent, parseEvent, prettyInput } from './hook-kit'
import type { HookWork } from './hook-work'
import { inputNotes, type InputNotes } from './input-notes'
import { mcpLaunch, SERVER_NAME, TOOL_NAME, TOOL_TIMEOUT_SECONDS, type SetupPlan } from './setup-steps'

const NAME = 'GitHub Copilot CLI'
const SETTINGS = '~/.copilot/settings.json'

/**
 * Copilot's permission request as its hook receives it: camelCase (`hookName`, `toolName`,
 * `toolInput`) even when configured under the PascalCase `PermissionRequest`, which its other events
 * answer with Claude-style snake_case fields (recorded from 1.0.102).
 */
const PermissionRequestSchema = z.looseObject({
  hookName: z.literal('permissionRequest'),
  sessionId: z.string().optional(),
  cwd: z.string().optional(),
  toolName: z.string(),
  toolInput: z.unknown(),
})
const ShellInput = z.looseObject({ command: z.string(), description: z.string().optional() })

/** Its shell tools (`bash`, Windows' `powershell`) as a command in the event's folder; any other tool's input shown whole. */
function approval(tool: string, input: unknown, cwd: string | undefined): { action: ApprovalAction } & InputNotes {
  const shell = tool === 'bash' || tool === 'powershell' ? ShellInput.safeParse(input) : undefined
  if (shell?.success) {
    return {
      action: {
        kind: 'command',
        command: shell.data.command,
        ...(shell.data.description ? { description: shell.data.description } : {}),
        ...(cwd ? { cwd } : {}),
      },
      ...inputNotes(input, ['command', 'description']),
    }
  }
  return { action: { kind: 'tool', input: prettyInput(input) } }
}

/** Copilot's PermissionRequest answer: `{"behavior":"allow"}`, or deny with the message its model is told. */
function permissionOutput(decision: ApprovalDecision): string {
  if (decision.behavior === 'allow') return JSON.stringify({ behavior: 'allow' })
  return JSON.stringify({ behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE })
}

/**
 * Maps a Copilot CLI hook event: a permission request → an approval (Allow or Deny decide it; a
 * dismissed card prints nothing, and Copilot goes on to its own rules and prompt); `Stop` → a "turn
 * complete" notice. Throws HookInputError for an event of the wrong shape.
 */
function copilotEvent(event: unknown): HookWork {
  if (typeof event === 'object' && event !== null && 'hookName' in event) {
    const e = parseEvent(PermissionRequestSchema, event, `not a ${NAME} permission request`)
    const agent = hookAgent(NAME, e.cwd, e.sessionId)
    return {
      agent,
      plan: {
        kind: 'approve',
        request: { tool: e.toolName, harness: 'copilot', ...approval(e.toolName, e.toolInput, e.cwd) },
        output: permissionOutput,
      },
    }
  }
  const base = parseEvent(BaseHookSchema, event, `not a ${NAME} hook event`)
  const agent = hookAgent(NAME, base.cwd, base.session_id)
  if (base.hook_event_name === 'Stop')
    return { agent, plan: { kind: 'notice', notice: { kind: 'turn-complete', text: `${NAME} finished its turn.` } } }
  return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
}

/** GitHub Copilot CLI, as `ask-user setup` and the Connect panel know it. */
export const copilot = {
  id: 'copilot',
  name: NAME,
  connectNote: 'noteCopilot',
  published: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  mcp: (info): SetupPlan => {
    const { argv, command, args, env, envPairs } = mcpLaunch(info)
    const timeoutMs = TOOL_TIMEOUT_SECONDS * 1000
    return {
      steps: [
        {
          kind: 'run',
          // Copilot's own default cuts a tool call long before a person answers: a day, in milliseconds.
          argv: [
            'copilot',
            'mcp',
            'add',
            '--timeout',
            String(timeoutMs),
            ...envPairs('--env'),
            SERVER_NAME,
            '--',
            ...argv,
          ],
          remove: ['copilot', 'mcp', 'remove', SERVER_NAME],
          entry: {
            file: '~/.copilot/mcp-config.json',
            path: ['mcpServers', SERVER_NAME],
            value: { type: 'local', command, args, env, timeout: timeoutMs },
          },
        },
      ],
      notes: [
        `Copilot CLI keeps no user-level allow rule for one MCP tool: start it with --allow-tool='${SERVER_NAME}(${TOOL_NAME})' to let it ask without a prompt.`,
      ],
    }
  },
  hooks: {
    // Copilot takes Claude-style groups under PascalCase event names; its timeouts are seconds.
    steps: (command) => [
      hookStep(SETTINGS, 'PermissionRequest', command, BLOCKING_HOOK_TIMEOUT_SECONDS),
      hookStep(SETTINGS, 'Stop', command, NOTICE_HOOK_TIMEOUT_SECONDS),
    ],
    notes: [
      'Copilot CLI runs the hook before its own rules and prompt: Allow and Deny in the inbox decide; a question left unanswered for 10 minutes goes back to Copilot.',
    ],
    map: (event) => copilotEvent(event),
  },
} as const satisfies Harness
