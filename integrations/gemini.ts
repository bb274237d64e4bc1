// Gemini CLI: MCP set-up through `gemini mcp add` (trusted, a day of timeout), hooks in
// ~/.gemini/settings.json (BeforeTool of the tools it confirms, Notification). No askpass setting.
import { z } from 'zod'
import type { ApprovalAction, ApprovalDecision, ApprovalWarning } from '../shared/approval'
import type { ConnectInfo } from '../shared/connect'
import { replacementDiff } from './diff'
import type { Harness } from './harness'
import { BLOCKING_HOOK_TIMEOUT_SECONDS, hookStep, NOTICE_HOOK_TIMEOUT_SECONDS } from './hook-command'
import { BaseHookSchema, DEFAULT_DENY_MESSAGE, hookAgent, noticeText, parseEvent, prettyInput } from './hook-kit'
import type { HookWork } from './hook-work'
import { inputNotes, isOn, warning, type InputNotes } from './input-notes'
import { mcpLaunch, SERVER_NAME, TOOL_TIMEOUT_SECONDS, type SetupPlan } from './setup-steps'

const NAME = 'Gemini CLI'
const SETTINGS = '~/.gemini/settings.json'

const BeforeToolSchema = BaseHookSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const NotificationSchema = BaseHookSchema.extend({ notification_type: z.string().optional(), message: z.string() })

const text = z.string()
const ShellInput = z.looseObject({ command: text, description: text.optional(), dir_path: text.optional() })
const WriteInput = z.looseObject({ file_path: text, content: text })
const ReplaceInput = z.looseObject({ file_path: text, old_string: text, new_string: text })

/**
 * The tools Gemini CLI confirms, and so the ones its BeforeTool hook is matched to: each has a case
 * in {@link geminiToolApproval} (web_fetch is shown whole).
 */
const CONFIRMED_TOOLS = ['run_shell_command', 'write_file', 'replace', 'web_fetch'] as const
const BEFORE_TOOL_MATCHER = `^(${CONFIRMED_TOOLS.join('|')})$`

function replaceWarnings(input: Record<string, unknown>): ApprovalWarning[] {
  const count = input['expected_replacements']
  const many = isOn(input['allow_multiple']) || (typeof count === 'number' && count > 1)
  return many
    ? [
        warning(
          'REPLACES_EVERY_MATCH',
          'Replaces more than one match in the file (allow_multiple / expected_replacements).',
        ),
      ]
    : []
}

/**
 * The approval of one Gemini CLI tool call (Qwen Code, its fork, names its tools the same):
 * run_shell_command → the command (in `dir_path`, else the event's cwd), `is_background` a warning;
 * write_file → the file and its content; replace → the file with a diff, several replacements a
 * warning. Every field not shown goes to `extra`; any other tool's input is shown whole.
 */
export function geminiToolApproval(
  tool: string,
  input: unknown,
  cwd: string | undefined,
): { action: ApprovalAction } & InputNotes {
  const shell = tool === 'run_shell_command' ? ShellInput.safeParse(input) : undefined
  if (shell?.success) {
    const where = shell.data.dir_path ?? cwd
    const background = isOn(shell.data['is_background'])
      ? [warning('RUNS_IN_BACKGROUND', 'Keeps running in the background after it starts (is_background).')]
      : []
    return {
      action: {
        kind: 'command',
        command: shell.data.command,
        ...(shell.data.description ? { description: shell.data.description } : {}),
        ...(where ? { cwd: where } : {}),
      },
      ...inputNotes(input, ['command', 'description', 'dir_path'], background),
    }
  }
  const write = tool === 'write_file' ? WriteInput.safeParse(input) : undefined
  if (write?.success)
    return {
      action: { kind: 'file', path: write.data.file_path, operation: 'write', content: write.data.content },
      ...inputNotes(input, ['file_path', 'content']),
    }
  const replace = tool === 'replace' ? ReplaceInput.safeParse(input) : undefined
  if (replace?.success) {
    return {
      action: {
        kind: 'file',
        path: replace.data.file_path,
        operation: 'edit',
        diff: replacementDiff(replace.data.file_path, replace.data.old_string, replace.data.new_string),
      },
      ...inputNotes(input, ['file_path', 'old_string', 'new_string'], replaceWarnings(replace.data)),
    }
  }
  return { action: { kind: 'tool', input: prettyInput(input) } }
}

/**
 * Gemini CLI's BeforeTool can block a tool or let it go on to Gemini's own checks; it cannot approve.
 * Deny → `{"decision":"deny","reason":…}` (Gemini blocks the call and tells the model the reason);
 * Allow → nothing printed: Gemini goes on as without the hook (its policy runs the tool, or it asks
 * in the terminal as usual). A dismissal prints {@link BEFORE_TOOL_DISMISSED}.
 */
function beforeToolOutput(decision: ApprovalDecision): string | undefined {
  if (decision.behavior === 'allow') return undefined
  return JSON.stringify({ decision: 'deny', reason: decision.message?.trim() || DEFAULT_DENY_MESSAGE })
}

/**
 * A dismissed card means "decide in the terminal". Printing nothing would hand the call to Gemini's
 * policy, which under `--yolo` or an allow rule runs it unasked; `ask` (Gemini CLI 0.61) forces its
 * own confirmation prompt instead, with this message above it.
 */
const BEFORE_TOOL_DISMISSED = JSON.stringify({
  decision: 'ask',
  systemMessage: 'Dismissed in Ask User Companion: decide here.',
})

/**
 * Maps a Gemini CLI hook event: `BeforeTool` → an approval (deny or go on), `Notification` → a notice.
 * Throws HookInputError for an event of the wrong shape.
 */
function geminiEvent(event: unknown): HookWork {
  const base = parseEvent(BaseHookSchema, event, `not a ${NAME} hook event`)
  const agent = hookAgent(NAME, base.cwd, base.session_id)
  switch (base.hook_event_name) {
    case 'BeforeTool': {
      const e = parseEvent(BeforeToolSchema, event, `not a ${NAME} BeforeTool event`)
      return {
        agent,
        plan: {
          kind: 'approve',
          request: { tool: e.tool_name, harness: 'gemini', ...geminiToolApproval(e.tool_name, e.tool_input, e.cwd) },
          output: beforeToolOutput,
          dismissed: BEFORE_TOOL_DISMISSED,
        },
      }
    }
    case 'Notification': {
      const e = parseEvent(NotificationSchema, event, `not a ${NAME} Notification event`)
      return {
        agent,
        plan: {
          kind: 'notice',
          notice: {
            kind: e.notification_type === 'ToolPermission' ? 'needs-input' : 'info',
            text: noticeText(e.message),
          },
        },
      }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.hook_event_name} is not an event ask-user answers` } }
  }
}

/**
 * The MCP set-up of Gemini CLI and of Qwen Code, which takes the same `mcp add` flags: the server
 * trusted (no confirmation per question) with a day of timeout, at user scope in `~/<folder>/settings.json`.
 */
export function geminiStyleMcp(
  cli: 'gemini' | 'qwen',
  folder: string,
  info: ConnectInfo,
  notes: readonly string[],
): SetupPlan {
  const { argv, command, args, env, envPairs } = mcpLaunch(info)
  const timeoutMs = TOOL_TIMEOUT_SECONDS * 1000
  return {
    steps: [
      {
        kind: 'run',
        // Options before the name and no `--` (Gemini CLI refuses it); -s user (Gemini's default is the project).
        argv: [
          cli,
          'mcp',
          'add',
          '-s',
          'user',
          '--trust',
          '--timeout',
          String(timeoutMs),
          ...envPairs('-e'),
          SERVER_NAME,
          ...argv,
        ],
        remove: [cli, 'mcp', 'remove', '-s', 'user', SERVER_NAME],
        entry: {
          file: `~/${folder}/settings.json`,
          path: ['mcpServers', SERVER_NAME],
          value: { command, args, env, timeout: timeoutMs, trust: true },
        },
      },
    ],
    notes: [...notes],
  }
}

/** Gemini CLI, as `ask-user setup`, `ask-user hook` and the Connect panel know it. */
export const gemini = {
  id: 'gemini',
  name: NAME,
  connectNote: 'noteGemini',
  published: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  mcp: (info) =>
    geminiStyleMcp('gemini', '.gemini', info, [
      'Gemini CLI starts no MCP server in a folder it does not trust: trust your project folders when it asks.',
    ]),
  hooks: {
    // Gemini CLI's hook timeouts are milliseconds.
    steps: (command) => [
      hookStep(SETTINGS, 'BeforeTool', command, BLOCKING_HOOK_TIMEOUT_SECONDS * 1000, BEFORE_TOOL_MATCHER),
      hookStep(SETTINGS, 'Notification', command, NOTICE_HOOK_TIMEOUT_SECONDS * 1000),
    ],
    notes: [
      'Gemini CLI hooks can deny a tool but not approve it: Allow in the inbox lets Gemini ask (or its policy decide) as usual; Dismiss makes Gemini ask in the terminal, even under --yolo.',
    ],
    map: (event) => geminiEvent(event),
  },
} as const satisfies Harness
