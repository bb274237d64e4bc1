import { z } from 'zod'
import type { ApprovalAction, ApprovalDecision } from './contract'
import { replacementDiff } from './diff'
import type { ApprovalWarning } from '../../shared/approval'
import { inputNotes, isOn, warning, type InputNotes } from './input-notes'
import { DEFAULT_DENY_MESSAGE, HookInputError, noticeText, prettyInput, sessionTitle, type HookWork } from './plan'

const BaseSchema = z.looseObject({ session_id: z.string().optional(), cwd: z.string().optional(), hook_event_name: z.string() })
const BeforeToolSchema = BaseSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const NotificationSchema = BaseSchema.extend({ notification_type: z.string().optional(), message: z.string() })

const text = z.string()
const ShellInput = z.looseObject({ command: text, description: text.optional(), dir_path: text.optional() })
const WriteInput = z.looseObject({ file_path: text, content: text })
const ReplaceInput = z.looseObject({ file_path: text, old_string: text, new_string: text })

/** The tools whose BeforeTool event `ask-user setup gemini --hooks` matches (the ones Gemini CLI confirms). */
export const GEMINI_CONFIRMED_TOOLS = ['run_shell_command', 'write_file', 'replace', 'web_fetch'] as const

function replaceWarnings(input: Record<string, unknown>): ApprovalWarning[] {
  const count = input['expected_replacements']
  const many = isOn(input['allow_multiple']) || (typeof count === 'number' && count > 1)
  return many ? [warning('REPLACES_EVERY_MATCH', 'Replaces more than one match in the file (allow_multiple / expected_replacements).')] : []
}

/**
 * run_shell_command → the command (in `dir_path`, else the event's cwd), `is_background` a warning;
 * write_file → the file and its content; replace → the file with a diff, several replacements a
 * warning. Every field not shown goes to `extra`; any other tool's input is shown whole.
 */
function approval(tool: string, input: unknown, cwd: string | undefined): { action: ApprovalAction } & InputNotes {
  const shell = tool === 'run_shell_command' ? ShellInput.safeParse(input) : undefined
  if (shell?.success) {
    const where = shell.data.dir_path ?? cwd
    const background = isOn(shell.data['is_background']) ? [warning('RUNS_IN_BACKGROUND', 'Keeps running in the background after it starts (is_background).')] : []
    return {
      action: { kind: 'command', command: shell.data.command, ...(shell.data.description ? { description: shell.data.description } : {}), ...(where ? { cwd: where } : {}) },
      ...inputNotes(input, ['command', 'description', 'dir_path'], background),
    }
  }
  const write = tool === 'write_file' ? WriteInput.safeParse(input) : undefined
  if (write?.success) return { action: { kind: 'file', path: write.data.file_path, operation: 'write', content: write.data.content }, ...inputNotes(input, ['file_path', 'content']) }
  const replace = tool === 'replace' ? ReplaceInput.safeParse(input) : undefined
  if (replace?.success) {
    return {
      action: { kind: 'file', path: replace.data.file_path, operation: 'edit', diff: replacementDiff(replace.data.file_path, replace.data.old_string, replace.data.new_string) },
      ...inputNotes(input, ['file_path', 'old_string', 'new_string'], replaceWarnings(replace.data)),
    }
  }
  return { action: { kind: 'tool', input: prettyInput(input) } }
}

/**
 * Gemini CLI's BeforeTool can block a tool or let it go on to Gemini's own checks; it cannot approve.
 * Deny → `{"decision":"deny","reason":…}` (Gemini blocks the call and tells the model the reason);
 * Allow → nothing printed: Gemini goes on as without the hook (its policy runs the tool, or it asks
 * in the terminal as usual).
 */
function beforeToolOutput(decision: ApprovalDecision): string | undefined {
  if (decision.behavior === 'allow') return undefined
  return JSON.stringify({ decision: 'deny', reason: decision.message?.trim() || DEFAULT_DENY_MESSAGE })
}

/** Maps a Gemini CLI hook event: `BeforeTool` → an approval (deny or go on), `Notification` → a notice. */
export function geminiHook(event: unknown): HookWork {
  const base = BaseSchema.safeParse(event)
  if (!base.success) throw new HookInputError(`not a Gemini CLI hook event: ${base.error.issues[0]?.message ?? 'wrong shape'}`)
  const agent = { name: 'Gemini CLI', ...(base.data.cwd ? { cwd: base.data.cwd } : {}), ...(base.data.session_id ? { title: sessionTitle(base.data.session_id)! } : {}) }
  switch (base.data.hook_event_name) {
    case 'BeforeTool': {
      const e = BeforeToolSchema.safeParse(event)
      if (!e.success) throw new HookInputError(`not a Gemini CLI BeforeTool event: ${e.error.issues[0]?.message ?? 'wrong shape'}`)
      return { agent, plan: { kind: 'approve', request: { tool: e.data.tool_name, harness: 'gemini', ...approval(e.data.tool_name, e.data.tool_input, e.data.cwd) }, output: beforeToolOutput } }
    }
    case 'Notification': {
      const e = NotificationSchema.safeParse(event)
      if (!e.success) throw new HookInputError(`not a Gemini CLI Notification event: ${e.error.issues[0]?.message ?? 'wrong shape'}`)
      return { agent, plan: { kind: 'notice', notice: { kind: e.data.notification_type === 'ToolPermission' ? 'needs-input' : 'info', text: noticeText(e.data.message) } } }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.data.hook_event_name} is not an event ask-user answers` } }
  }
}
