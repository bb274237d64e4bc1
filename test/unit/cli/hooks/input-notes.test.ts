// Class 6: an approval shows everything that changes what is allowed. Per harness and tool, a property:
// any key of the tool's input that the action does not render is in the request's `extra` with its
// value (never dropped), and the request passes the companion's check. Then the known dangerous flags
// become warnings with stable codes.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { claudeCodeHook } from '../../../../cli/hooks/claude-code'
import { codexHook } from '../../../../cli/hooks/codex'
import { geminiHook } from '../../../../cli/hooks/gemini'
import { opencodeHook } from '../../../../cli/hooks/opencode'
import type { HookWork } from '../../../../cli/hooks/plan'
import type { ApprovalRequest } from '../../../../shared/approval'
import { DEFAULT_LIMITS } from '../../../../shared/limits'
import { validateApproval } from '../../../../shared/validate-approval'

/** One tool of one harness: a valid input, the keys its action renders, and the hook call. */
export interface ToolCase {
  harness: string
  tool: string
  input: Record<string, unknown>
  shown: readonly string[]
  run: (input: Record<string, unknown>) => HookWork
}

const claude = (tool: string) => (input: Record<string, unknown>) =>
  claudeCodeHook({ session_id: 's1', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: tool, tool_input: input })
const codex = (input: Record<string, unknown>) => codexHook({ session_id: 's1', cwd: '/p', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: input }, 'stdin')
const gemini = (tool: string) => (input: Record<string, unknown>) =>
  geminiHook({ session_id: 's1', cwd: '/p', hook_event_name: 'BeforeTool', tool_name: tool, tool_input: input })
const opencode = (permission: string, patterns: string[]) => (metadata: Record<string, unknown>) =>
  opencodeHook({ type: 'permission.asked', directory: '/p', properties: { id: 'per_1', sessionID: 'ses_1', permission, patterns, metadata } })

/** Every approval-producing tool of every harness, with the input fields its card renders. */
export const TOOL_CASES: ToolCase[] = [
  { harness: 'claude-code', tool: 'Bash', input: { command: 'ls', description: 'list' }, shown: ['command', 'description'], run: claude('Bash') },
  { harness: 'claude-code', tool: 'Edit', input: { file_path: '/a', old_string: 'x', new_string: 'y' }, shown: ['file_path', 'old_string', 'new_string'], run: claude('Edit') },
  { harness: 'claude-code', tool: 'MultiEdit', input: { file_path: '/a', edits: [{ old_string: 'x', new_string: 'y' }] }, shown: ['file_path', 'edits'], run: claude('MultiEdit') },
  { harness: 'claude-code', tool: 'Write', input: { file_path: '/a', content: 'x' }, shown: ['file_path', 'content'], run: claude('Write') },
  { harness: 'claude-code', tool: 'NotebookEdit', input: { notebook_path: '/a.ipynb', new_source: 'x', edit_mode: 'replace' }, shown: ['notebook_path', 'new_source', 'edit_mode'], run: claude('NotebookEdit') },
  { harness: 'claude-code', tool: 'WebFetch', input: { url: 'https://example.com/' }, shown: ['url'], run: claude('WebFetch') },
  { harness: 'claude-code', tool: 'ExitPlanMode', input: { plan: '# Plan' }, shown: ['plan'], run: claude('ExitPlanMode') },
  { harness: 'codex', tool: 'Bash', input: { command: ['ls', '-l'], description: 'list' }, shown: ['command', 'description', 'workdir'], run: codex },
  { harness: 'gemini', tool: 'run_shell_command', input: { command: 'ls', description: 'list', dir_path: '/p' }, shown: ['command', 'description', 'dir_path'], run: gemini('run_shell_command') },
  { harness: 'gemini', tool: 'write_file', input: { file_path: '/a', content: 'x' }, shown: ['file_path', 'content'], run: gemini('write_file') },
  { harness: 'gemini', tool: 'replace', input: { file_path: '/a', old_string: 'x', new_string: 'y' }, shown: ['file_path', 'old_string', 'new_string'], run: gemini('replace') },
  { harness: 'opencode', tool: 'bash', input: { command: 'ls' }, shown: ['command', 'description'], run: opencode('bash', ['ls']) },
  { harness: 'opencode', tool: 'edit', input: { filepath: '/a', diff: '-x\n+y' }, shown: ['filepath', 'diff'], run: opencode('edit', ['/a']) },
  { harness: 'opencode', tool: 'webfetch', input: { url: 'https://example.com/' }, shown: ['url'], run: opencode('webfetch', ['https://example.com/']) },
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

describe('any extra key of tool_input reaches the approval (property, per harness and tool)', () => {
  for (const c of TOOL_CASES) {
    it(`${c.harness} ${c.tool}`, () => {
      const key = fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((k) => !c.shown.includes(k))
      fc.assert(
        fc.property(key, fc.jsonValue({ maxDepth: 2 }), (k, value) => {
          const request = requestOf(c.run(withKey(c.input, k, value)))
          expect(request.action.kind).not.toBe('tool')
          expect(request.extra).toBeDefined()
          const extra = JSON.parse(request.extra!) as Record<string, unknown>
          expect(Object.hasOwn(extra, k)).toBe(true)
          expect(extra[k]).toEqual(JSON.parse(JSON.stringify(value)))
          expect(validateApproval(JSON.parse(JSON.stringify(request)), DEFAULT_LIMITS)).toMatchObject({ ok: true })
        }),
        { numRuns: 60 },
      )
    })
  }

  it('the ordinary case has no extra and no warnings (the request keeps its old shape)', () => {
    for (const c of TOOL_CASES) {
      const request = requestOf(c.run(c.input))
      expect(request.extra, `${c.harness} ${c.tool}`).toBeUndefined()
      expect(request.warnings, `${c.harness} ${c.tool}`).toBeUndefined()
    }
  })

  it('MultiEdit: a field inside one edit is kept under edits, by position', () => {
    const request = requestOf(claude('MultiEdit')({ file_path: '/a', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd', replace_all: true }] }))
    expect(JSON.parse(request.extra!)).toEqual({ edits: [{}, { replace_all: true }] })
    expect(request.warnings).toEqual([{ code: 'REPLACES_EVERY_MATCH', message: 'Edit 2 of 2 replaces every match in the file, not just one (replace_all).' }])
  })
})

describe('known dangerous flags become warnings with stable codes', () => {
  const codes = (work: HookWork) => requestOf(work).warnings?.map((w) => w.code)
  it.each([
    ['claude Bash dangerouslyDisableSandbox', claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: true }), ['OUTSIDE_SANDBOX']],
    ['claude Bash run_in_background', claude('Bash')({ command: 'ls', run_in_background: true }), ['RUNS_IN_BACKGROUND']],
    ['claude Bash both, as strings', claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: 'true', run_in_background: 'true' }), ['OUTSIDE_SANDBOX', 'RUNS_IN_BACKGROUND']],
    ['claude Edit replace_all', claude('Edit')({ file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true }), ['REPLACES_EVERY_MATCH']],
    ['codex sandbox_permissions require_escalated', codex({ command: 'ls', sandbox_permissions: 'require_escalated' }), ['OUTSIDE_SANDBOX']],
    ['codex with_escalated_permissions', codex({ command: 'ls', with_escalated_permissions: true }), ['OUTSIDE_SANDBOX']],
    ['gemini is_background', gemini('run_shell_command')({ command: 'ls', is_background: true }), ['RUNS_IN_BACKGROUND']],
    ['gemini replace allow_multiple', gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', allow_multiple: true }), ['REPLACES_EVERY_MATCH']],
    ['gemini replace expected_replacements 3', gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', expected_replacements: 3 }), ['REPLACES_EVERY_MATCH']],
  ])('%s', (_name, work, expected) => {
    expect(codes(work)).toEqual(expected)
  })

  it.each([
    ['claude Bash flags off', claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: false, run_in_background: false })],
    ['codex sandbox_permissions use_default', codex({ command: 'ls', sandbox_permissions: 'use_default' })],
    ['gemini expected_replacements 1', gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', expected_replacements: 1 })],
  ])('%s: no warning, the flag still shown in extra', (_name, work) => {
    const request = requestOf(work)
    expect(request.warnings).toBeUndefined()
    expect(request.extra).toBeDefined()
  })

  it('codex: the command runs in workdir, and the card says so', () => {
    expect(requestOf(codex({ command: 'ls', workdir: '/etc' })).action).toEqual({ kind: 'command', command: 'ls', cwd: '/etc' })
  })

  it('opencode: patterns that differ from what the card shows are in extra', () => {
    const request = requestOf(opencode('bash', ['rm *'])({ command: 'ls' }))
    expect(JSON.parse(request.extra!)).toEqual({ patterns: ['rm *'] })
  })
})
