// Class 6: an approval shows everything that changes what is allowed. Per harness and tool, a property:
// any key of the tool's input that the action does not render is in the request's `extra` with its
// value (never dropped), and the request passes the companion's check. Then the known dangerous flags
// become warnings with stable codes.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HookWork } from '../../../integrations/hook-work'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { validateApproval } from '../../../shared/validate-approval'
import { TOOL_CASES, claude, codex, gemini, opencode, requestOf, withKey } from '../cli/hooks/tool-cases'

describe('any extra key of tool_input reaches the approval (property, per harness and tool)', () => {
  for (const c of TOOL_CASES) {
    it(`${c.harness} ${c.tool}`, () => {
      const key = fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((k) => !c.shown.includes(k))
      fc.assert(
        // `__proto__` and `constructor` always among the keys tried: a key rebuilt by assignment is lost.
        fc.property(
          fc.oneof(fc.constantFrom('__proto__', 'constructor'), key),
          fc.jsonValue({ maxDepth: 2 }),
          (k, value) => {
            const request = requestOf(c.run(withKey(c.input, k, value)))
            expect(request.action.kind).not.toBe('tool')
            expect(request.extra).toBeDefined()
            const extra = JSON.parse(request.extra!) as Record<string, unknown>
            expect(Object.hasOwn(extra, k)).toBe(true)
            expect(extra[k]).toEqual(JSON.parse(JSON.stringify(value)))
            expect(validateApproval(JSON.parse(JSON.stringify(request)), DEFAULT_LIMITS)).toMatchObject({ ok: true })
          },
        ),
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
    const request = requestOf(
      claude('MultiEdit')({
        file_path: '/a',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd', replace_all: true },
        ],
      }),
    )
    expect(JSON.parse(request.extra!)).toEqual({ edits: [{}, { replace_all: true }] })
    expect(request.warnings).toEqual([
      {
        code: 'REPLACES_EVERY_MATCH',
        message: 'Edit 2 of 2 replaces every match in the file, not just one (replace_all).',
      },
    ])
  })
})

describe('known dangerous flags become warnings with stable codes', () => {
  const codes = (work: HookWork) => requestOf(work).warnings?.map((w) => w.code)
  it.each([
    [
      'claude Bash dangerouslyDisableSandbox',
      claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: true }),
      ['OUTSIDE_SANDBOX'],
    ],
    [
      'claude Bash run_in_background',
      claude('Bash')({ command: 'ls', run_in_background: true }),
      ['RUNS_IN_BACKGROUND'],
    ],
    [
      'claude Bash both, as strings',
      claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: 'true', run_in_background: 'true' }),
      ['OUTSIDE_SANDBOX', 'RUNS_IN_BACKGROUND'],
    ],
    [
      'claude Edit replace_all',
      claude('Edit')({ file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true }),
      ['REPLACES_EVERY_MATCH'],
    ],
    [
      'codex sandbox_permissions require_escalated',
      codex({ command: 'ls', sandbox_permissions: 'require_escalated' }),
      ['OUTSIDE_SANDBOX'],
    ],
    [
      'codex with_escalated_permissions',
      codex({ command: 'ls', with_escalated_permissions: true }),
      ['OUTSIDE_SANDBOX'],
    ],
    [
      'gemini is_background',
      gemini('run_shell_command')({ command: 'ls', is_background: true }),
      ['RUNS_IN_BACKGROUND'],
    ],
    [
      'gemini replace allow_multiple',
      gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', allow_multiple: true }),
      ['REPLACES_EVERY_MATCH'],
    ],
    [
      'gemini replace expected_replacements 3',
      gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', expected_replacements: 3 }),
      ['REPLACES_EVERY_MATCH'],
    ],
  ])('%s', (_name, work, expected) => {
    expect(codes(work)).toEqual(expected)
  })

  it.each([
    [
      'claude Bash flags off',
      claude('Bash')({ command: 'ls', dangerouslyDisableSandbox: false, run_in_background: false }),
    ],
    ['codex sandbox_permissions use_default', codex({ command: 'ls', sandbox_permissions: 'use_default' })],
    [
      'gemini expected_replacements 1',
      gemini('replace')({ file_path: '/a', old_string: 'x', new_string: 'y', expected_replacements: 1 }),
    ],
  ])('%s: no warning, the flag still shown in extra', (_name, work) => {
    const request = requestOf(work)
    expect(request.warnings).toBeUndefined()
    expect(request.extra).toBeDefined()
  })

  it('codex: the command runs in workdir, and the card says so', () => {
    expect(requestOf(codex({ command: 'ls', workdir: '/etc' })).action).toEqual({
      kind: 'command',
      command: 'ls',
      cwd: '/etc',
    })
  })

  it('opencode: patterns that differ from what the card shows are in extra', () => {
    const request = requestOf(opencode('bash', ['rm *'])({ command: 'ls' }))
    expect(JSON.parse(request.extra!)).toEqual({ patterns: ['rm *'] })
  })
})
