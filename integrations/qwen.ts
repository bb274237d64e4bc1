// Qwen Code: a fork of Gemini CLI with the same `mcp add` flags; hooks in ~/.qwen/settings.json
// (PermissionRequest, Stop), answered as Claude Code's are. No askpass setting.
import { z } from 'zod'
import type { ApprovalDecision } from '../shared/approval'
import { geminiStyleMcp, geminiToolApproval } from './gemini'
import type { Harness } from './harness'
import { BLOCKING_HOOK_TIMEOUT_SECONDS, hookStep, NOTICE_HOOK_TIMEOUT_SECONDS } from './hook-command'
import { BaseHookSchema, DEFAULT_DENY_MESSAGE, hookAgent, noticeText, parseEvent } from './hook-kit'
import type { HookWork } from './hook-work'

const NAME = 'Qwen Code'
const SETTINGS = '~/.qwen/settings.json'

const PermissionRequestSchema = BaseHookSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const StopSchema = BaseHookSchema.extend({ last_assistant_message: z.string().nullish() })

/**
 * Qwen's PermissionRequest answer (its `PermissionRequestHookOutput`): `hookSpecificOutput.decision`
 * `{behavior}`, and the message its model is told on deny.
 */
function permissionOutput(decision: ApprovalDecision): string {
  const wire =
    decision.behavior === 'allow'
      ? { behavior: 'allow' }
      : { behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: wire } })
}

/**
 * Maps a Qwen Code hook event: `PermissionRequest` (a tool call it would confirm) → an approval;
 * `Stop` → a "turn complete" notice. Throws HookInputError for an event of the wrong shape.
 */
function qwenEvent(event: unknown): HookWork {
  const base = parseEvent(BaseHookSchema, event, `not a ${NAME} hook event`)
  const agent = hookAgent(NAME, base.cwd, base.session_id)
  switch (base.hook_event_name) {
    case 'PermissionRequest': {
      const e = parseEvent(PermissionRequestSchema, event, `not a ${NAME} PermissionRequest event`)
      return {
        agent,
        plan: {
          kind: 'approve',
          request: { tool: e.tool_name, harness: 'qwen', ...geminiToolApproval(e.tool_name, e.tool_input, e.cwd) },
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
          notice: { kind: 'turn-complete', text: last ? noticeText(last) : `${NAME} finished its turn.` },
        },
      }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
  }
}

/** Qwen Code, as `ask-user setup`, `ask-user hook` and the Connect panel know it. */
export const qwen = {
  id: 'qwen',
  name: NAME,
  connectNote: 'noteQwen',
  published: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  mcp: (info) => geminiStyleMcp('qwen', '.qwen', info, []),
  hooks: {
    // Qwen reads hook timeouts in seconds (values of 1000 or more as milliseconds, its older form).
    steps: (command) => [
      hookStep(SETTINGS, 'PermissionRequest', command, BLOCKING_HOOK_TIMEOUT_SECONDS),
      hookStep(SETTINGS, 'Stop', command, NOTICE_HOOK_TIMEOUT_SECONDS),
    ],
    notes: [
      'Qwen Code asks the hook only in an interactive session (or with --input-format stream-json); with -p alone it declines such tools before any hook runs.',
    ],
    map: (event) => qwenEvent(event),
  },
} as const satisfies Harness
