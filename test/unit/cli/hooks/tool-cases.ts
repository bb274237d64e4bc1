// Test helper: every approval-producing tool of every harness (a valid input, the fields its card
// renders, the hook call), for the "no input field is ever dropped" properties.
import { hooksOf } from '../../../../integrations/index'
import type { HookWork } from '../../../../integrations/hook-work'
import type { ApprovalRequest } from '../../../../shared/approval'

/** One tool of one harness: a valid input, the keys its action renders, and the hook call. */
export interface ToolCase {
  harness: string
  tool: string
  input: Record<string, unknown>
  shown: readonly string[]
  run: (input: Record<string, unknown>) => HookWork
}

export const claude = (tool: string) => (input: Record<string, unknown>) =>
  hooksOf('claude-code').map(
    { session_id: 's1', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: tool, tool_input: input },
    'stdin',
  )
export const codex = (input: Record<string, unknown>) =>
  hooksOf('codex').map(
    { session_id: 's1', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: input },
    'stdin',
  )
export const gemini = (tool: string) => (input: Record<string, unknown>) =>
  hooksOf('gemini').map(
    { session_id: 's1', cwd: '/p', hook_event_name: 'BeforeTool', tool_name: tool, tool_input: input },
    'stdin',
  )
export const qwen = (tool: string) => (input: Record<string, unknown>) =>
  hooksOf('qwen').map(
    { session_id: 's1', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: tool, tool_input: input },
    'stdin',
  )
export const copilot = (tool: string) => (input: Record<string, unknown>) =>
  hooksOf('copilot').map(
    { hookName: 'permissionRequest', sessionId: 's1', cwd: '/p', toolName: tool, toolInput: input },
    'stdin',
  )
export const opencode = (permission: string, patterns: string[]) => (metadata: Record<string, unknown>) =>
  hooksOf('opencode').map(
    {
      type: 'permission.asked',
      directory: '/p',
      properties: { id: 'per_1', sessionID: 'ses_1', permission, patterns, metadata },
    },
    'stdin',
  )

/** Every approval-producing tool of every harness, with the input fields its card renders. */
export const TOOL_CASES: ToolCase[] = [
  {
    harness: 'claude-code',
    tool: 'Bash',
    input: { command: 'ls', description: 'list' },
    shown: ['command', 'description'],
    run: claude('Bash'),
  },
  {
    harness: 'claude-code',
    tool: 'Edit',
    input: { file_path: '/a', old_string: 'x', new_string: 'y' },
    shown: ['file_path', 'old_string', 'new_string'],
    run: claude('Edit'),
  },
  {
    harness: 'claude-code',
    tool: 'MultiEdit',
    input: { file_path: '/a', edits: [{ old_string: 'x', new_string: 'y' }] },
    shown: ['file_path', 'edits'],
    run: claude('MultiEdit'),
  },
  {
    harness: 'claude-code',
    tool: 'Write',
    input: { file_path: '/a', content: 'x' },
    shown: ['file_path', 'content'],
    run: claude('Write'),
  },
  {
    harness: 'claude-code',
    tool: 'NotebookEdit',
    input: { notebook_path: '/a.ipynb', new_source: 'x', edit_mode: 'replace' },
    shown: ['notebook_path', 'new_source', 'edit_mode'],
    run: claude('NotebookEdit'),
  },
  {
    harness: 'claude-code',
    tool: 'WebFetch',
    input: { url: 'https://example.com/' },
    shown: ['url'],
    run: claude('WebFetch'),
  },
  {
    harness: 'claude-code',
    tool: 'ExitPlanMode',
    input: { plan: '# Plan' },
    shown: ['plan'],
    run: claude('ExitPlanMode'),
  },
  {
    harness: 'codex',
    tool: 'Bash',
    input: { command: ['ls', '-l'], description: 'list' },
    shown: ['command', 'description', 'workdir'],
    run: codex,
  },
  {
    harness: 'gemini',
    tool: 'run_shell_command',
    input: { command: 'ls', description: 'list', dir_path: '/p' },
    shown: ['command', 'description', 'dir_path'],
    run: gemini('run_shell_command'),
  },
  {
    harness: 'gemini',
    tool: 'write_file',
    input: { file_path: '/a', content: 'x' },
    shown: ['file_path', 'content'],
    run: gemini('write_file'),
  },
  {
    harness: 'gemini',
    tool: 'replace',
    input: { file_path: '/a', old_string: 'x', new_string: 'y' },
    shown: ['file_path', 'old_string', 'new_string'],
    run: gemini('replace'),
  },
  {
    harness: 'qwen',
    tool: 'run_shell_command',
    input: { command: 'ls', description: 'list', dir_path: '/p' },
    shown: ['command', 'description', 'dir_path'],
    run: qwen('run_shell_command'),
  },
  {
    harness: 'qwen',
    tool: 'write_file',
    input: { file_path: '/a', content: 'x' },
    shown: ['file_path', 'content'],
    run: qwen('write_file'),
  },
  {
    harness: 'copilot',
    tool: 'bash',
    input: { command: 'ls', description: 'list' },
    shown: ['command', 'description'],
    run: copilot('bash'),
  },
  {
    harness: 'opencode',
    tool: 'bash',
    input: { command: 'ls' },
    shown: ['command', 'description'],
    run: opencode('bash', ['ls']),
  },
  {
    harness: 'opencode',
    tool: 'edit',
    input: { filepath: '/a', diff: '-x\n+y' },
    shown: ['filepath', 'diff'],
    run: opencode('edit', ['/a']),
  },
  {
    harness: 'opencode',
    tool: 'webfetch',
    input: { url: 'https://example.com/' },
    shown: ['url'],
    run: opencode('webfetch', ['https://example.com/']),
  },
]

/** `input` with one more own key (set as data, so that `__proto__` is a key like any other). */
export function withKey(input: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = { ...input }
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  return out
}

export function requestOf(work: HookWork): ApprovalRequest {
  if (work.plan.kind !== 'approve') throw new Error(`expected an approval, got ${work.plan.kind}`)
  return work.plan.request
}
