import { z } from 'zod'
import type { ApprovalAction, ApprovalDecision } from './contract'
import type { ApprovalWarning } from '../../shared/approval'
import { inputNotes, isOn, warning, type InputNotes } from './input-notes'
import { DEFAULT_DENY_MESSAGE, HookInputError, noticeText, prettyInput, sessionTitle, type HookWork } from './plan'

const BaseSchema = z.looseObject({ session_id: z.string().optional(), cwd: z.string().optional(), hook_event_name: z.string() })
const PermissionRequestSchema = BaseSchema.extend({ tool_name: z.string(), tool_input: z.unknown() })
const StopSchema = BaseSchema.extend({ last_assistant_message: z.string().nullish() })
const CommandInput = z.looseObject({ command: z.union([z.string(), z.array(z.string())]), description: z.string().nullish(), workdir: z.string().optional() })

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
  return escalated ? [warning('OUTSIDE_SANDBOX', "Runs outside Codex's sandbox (sandbox_permissions: require_escalated).")] : []
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
      action: { kind: 'command', command: text, ...(command.data.description ? { description: command.data.description } : {}), ...(where ? { cwd: where } : {}) },
      ...inputNotes(input, ['command', 'description', 'workdir'], sandboxWarnings(command.data)),
    }
  }
  return { action: { kind: 'tool', input: prettyInput({ tool, input }) } }
}

/** Codex's PermissionRequest answer (codex-rs hooks `permission-request.command.output`). */
function permissionOutput(decision: ApprovalDecision): string {
  const wire = decision.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: decision.message?.trim() || DEFAULT_DENY_MESSAGE }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: wire } })
}

/**
 * Maps a Codex hook event (stdin) or `notify` argument to the companion's work:
 * - `PermissionRequest` (`tool_name` "Bash", `tool_input {command, description?}`) → an approval with
 *   no "always" (Codex refuses `updatedPermissions` from a hook); Allow/Deny as Codex's decision wire;
 * - `Stop` → a "turn complete" notice;
 * - `notify` (`{"type":"agent-turn-complete", …}` as the program's last argument) → a notice.
 */
export function codexHook(event: unknown, from: 'stdin' | 'notify'): HookWork {
  if (from === 'notify') {
    const n = NotifySchema.safeParse(event)
    if (!n.success) throw new HookInputError(`not a Codex notify event: ${n.error.issues[0]?.message ?? 'wrong shape'}`)
    const agent = { name: 'Codex', ...(n.data.cwd ? { cwd: n.data.cwd } : {}), ...titled(sessionTitle(n.data['thread-id'])) }
    const last = n.data['last-assistant-message']?.trim()
    if (n.data.type !== 'agent-turn-complete') return { agent, plan: { kind: 'notice', notice: { kind: 'info', text: noticeText(`Codex: ${n.data.type}`) } } }
    return { agent, plan: { kind: 'notice', notice: { kind: 'turn-complete', text: last ? noticeText(last) : 'Codex finished its turn.' } } }
  }
  const base = BaseSchema.safeParse(event)
  if (!base.success) throw new HookInputError(`not a Codex hook event: ${base.error.issues[0]?.message ?? 'wrong shape'}`)
  const agent = { name: 'Codex', ...(base.data.cwd ? { cwd: base.data.cwd } : {}), ...titled(sessionTitle(base.data.session_id)) }
  switch (base.data.hook_event_name) {
    case 'PermissionRequest': {
      const e = PermissionRequestSchema.safeParse(event)
      if (!e.success) throw new HookInputError(`not a Codex PermissionRequest event: ${e.error.issues[0]?.message ?? 'wrong shape'}`)
      return {
        agent,
        plan: { kind: 'approve', request: { tool: e.data.tool_name, harness: 'codex', ...approval(e.data.tool_name, e.data.tool_input, e.data.cwd) }, output: permissionOutput },
      }
    }
    case 'Stop': {
      const e = StopSchema.safeParse(event)
      const last = e.success ? e.data.last_assistant_message?.trim() : undefined
      return { agent, plan: { kind: 'notice', notice: { kind: 'turn-complete', text: last ? noticeText(last) : 'Codex finished its turn.' } } }
    }
    default:
      return { agent, plan: { kind: 'pass', reason: `${base.data.hook_event_name} is not an event ask-user answers` } }
  }
}

function titled(title: string | undefined): { title?: string } {
  return title === undefined ? {} : { title }
}
