// Every fixture through the pure mappings: the request, questions or notice the companion gets, and
// the harness's stdout for the person's decision, byte for byte.
import { describe, expect, it } from 'vitest'
import { HARNESS_BY_ID, hooksOf } from '../../../integrations/index'
import { HookInputError, type HookWork } from '../../../integrations/hook-work'
import { replacementDiff } from '../../../integrations/diff'
import { hookFixtures, type HookFixture } from '../cli/hooks/fixtures'

function mapped(f: HookFixture): HookWork {
  return f.argument !== undefined
    ? hooksOf(f.harness).map(f.argument, 'argument')
    : hooksOf(f.harness).map(f.event, 'stdin')
}

describe('hook fixtures', () => {
  for (const f of hookFixtures()) {
    it(`${f.harness}/${f.name}`, () => {
      const { plan, agent } = mapped(f)
      expect(agent.name).toBe(HARNESS_BY_ID[f.harness].name)
      let stdout: string | undefined
      if (f.decision) {
        if (plan.kind !== 'approve') throw new Error(`expected an approval, got ${plan.kind}`)
        if (f.expect) expect(plan.request).toEqual(f.expect)
        stdout = plan.output(f.decision)
      } else if (f.dismissed) {
        if (plan.kind !== 'approve') throw new Error(`expected an approval, got ${plan.kind}`)
        stdout = plan.dismissed
      } else if (f.answers) {
        if (plan.kind !== 'ask') throw new Error(`expected an ask, got ${plan.kind}`)
        expect(plan.questions).toEqual(f.questions)
        stdout = plan.output(f.answers)
      } else {
        if (plan.kind !== 'notice') throw new Error(`expected a notice, got ${plan.kind}`)
        expect(plan.notice).toEqual(f.notice)
      }
      expect(stdout === undefined ? '' : `${stdout}\n`).toBe(f.stdout)
    })
  }
})

describe('mapping details', () => {
  const base = { session_id: 's1', cwd: '/p', transcript_path: '/t' }
  it('every hook harness names its session: the id groups the calls, a short label shows it', () => {
    for (const f of hookFixtures().filter((x) => x.event !== undefined)) {
      const { agent } = hooksOf(f.harness).map(f.event, 'stdin')
      expect(agent.session, `${f.harness}/${f.name}`).toMatch(/./)
      expect(agent.title).toBe(`session ${agent.session!.slice(0, 8)}`)
    }
  })
  it('Claude tools: Write, WebFetch, an unknown tool as pretty JSON', () => {
    const plan = (tool_name: string, tool_input: unknown) =>
      hooksOf('claude-code').map({ ...base, hook_event_name: 'PermissionRequest', tool_name, tool_input }, 'stdin').plan
    expect(plan('Write', { file_path: '/p/a.md', content: '# hi' })).toMatchObject({
      request: { action: { kind: 'file', path: '/p/a.md', operation: 'write', content: '# hi' } },
    })
    expect(plan('WebFetch', { url: 'https://example.com', prompt: 'read' })).toMatchObject({
      request: { action: { kind: 'url', url: 'https://example.com' } },
    })
    expect(plan('mcp__db__query', { sql: 'select 1' })).toMatchObject({
      request: { action: { kind: 'tool', input: '{\n  "sql": "select 1"\n}' } },
    })
    // A Bash input of another shape is shown as JSON, never guessed at.
    expect(plan('Bash', { cmd: 'ls' })).toMatchObject({ request: { action: { kind: 'tool' } } })
  })

  it('Claude: permission_prompt notifications and other PreToolUse tools pass; a skipped question is left out', () => {
    expect(
      hooksOf('claude-code').map(
        { ...base, hook_event_name: 'Notification', message: 'x', notification_type: 'permission_prompt' },
        'stdin',
      ).plan.kind,
    ).toBe('pass')
    expect(
      hooksOf('claude-code').map({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} }, 'stdin')
        .plan.kind,
    ).toBe('pass')
    const { plan } = hooksOf('claude-code').map(
      {
        ...base,
        hook_event_name: 'PreToolUse',
        tool_name: 'AskUserQuestion',
        tool_input: {
          questions: [
            {
              question: 'A?',
              header: 'A',
              options: [
                { label: 'x', description: '' },
                { label: 'y', description: '' },
              ],
              multiSelect: false,
            },
          ],
        },
      },
      'stdin',
    )
    if (plan.kind !== 'ask') throw new Error('not an ask')
    expect(JSON.parse(plan.output([{ id: 'q1', selected: [] }])!).hookSpecificOutput.updatedInput.answers).toEqual({})
    expect(
      JSON.parse(plan.output([{ id: 'q1', selected: [], custom: 'z' }])!).hookSpecificOutput.updatedInput.answers,
    ).toEqual({ 'A?': 'z' })
  })

  it('refuses events of the wrong shape with a reason', () => {
    expect(() => hooksOf('claude-code').map({ hook_event_name: 'PermissionRequest' }, 'stdin')).toThrow(HookInputError)
    expect(() => hooksOf('claude-code').map('hello', 'stdin')).toThrow(/not a Claude Code hook event/)
    // the field is named, never zod's "expected string, received undefined" (newcomer review L2)
    expect(() => hooksOf('claude-code').map({}, 'stdin')).toThrow(
      'not a Claude Code hook event: missing required property "hook_event_name"',
    )
    expect(() => hooksOf('codex').map({ type: 1 }, 'argument')).toThrow(/not a Codex notify event/)
    expect(() => hooksOf('opencode').map({ type: 'session.idle' }, 'stdin')).toThrow(/not an opencode/)
  })

  it('diffs keep at most three shared lines each side', () => {
    const old = ['1', '2', '3', '4', '5', 'old', '6', '7', '8', '9'].join('\n')
    const updated = old.replace('old', 'new')
    expect(replacementDiff('f', old, updated)).toBe('--- f\n+++ f\n@@\n 3\n 4\n 5\n-old\n+new\n 6\n 7\n 8\n')
  })
})
