import { describe, expect, it } from 'vitest'
import {
  APPROVAL_BODY_CHARS,
  ApprovalDecisionSchema,
  approvalSummary,
  decisionProblem,
  type ApprovalRequest,
} from '../../../shared/approval'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { validateApproval, validateNotice } from '../../../shared/validate-approval'
import { AgentFrameSchema, CompanionFrameSchema } from '../../../shared/wire'
import { UiClientFrameSchema } from '../../../shared/ui'

const bash: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: { kind: 'command', command: 'npm test', cwd: '/src/app' },
  always: { label: 'Always allow `npm test` in this project' },
}

describe('approval requests', () => {
  it('accepts every action kind', () => {
    const actions = [
      { kind: 'command', command: 'rm -rf build', description: 'clean' },
      { kind: 'file', path: 'src/app.ts', operation: 'edit', diff: '-a\n+b' },
      { kind: 'url', url: 'https://example.com' },
      { kind: 'plan', plan: '# Plan\n- one' },
      { kind: 'tool', input: '{\n  "q": 1\n}' },
    ]
    for (const action of actions)
      expect(validateApproval({ tool: 'T', action }, DEFAULT_LIMITS)).toEqual({
        ok: true,
        value: { tool: 'T', action },
      })
  })
  it('refuses a bad shape with INVALID_ARGS in our words', () => {
    expect(validateApproval({ action: bash.action }, DEFAULT_LIMITS)).toEqual({
      ok: false,
      code: 'INVALID_ARGS',
      message: 'invalid arguments: missing required property "approval.tool"',
    })
    expect(validateApproval({ tool: 'Bash', action: { kind: 'command', command: 7 } }, DEFAULT_LIMITS)).toMatchObject({
      code: 'INVALID_ARGS',
      message: 'invalid arguments: "approval.action.command" must be a string',
    })
    expect(validateApproval('nope', DEFAULT_LIMITS)).toMatchObject({
      code: 'INVALID_ARGS',
      message: 'invalid arguments: "approval" must be an object',
    })
    const kind = validateApproval({ tool: 'Bash', action: { kind: 'launch' } }, DEFAULT_LIMITS)
    expect(kind).toMatchObject({ code: 'INVALID_ARGS' })
    expect(kind.ok ? '' : kind.message).toBe(
      'invalid arguments: "approval.action.kind" must be "command" or "file" or "url" or "plan" or "tool"',
    )
  })
  it('caps short fields at textChars and bodies at APPROVAL_BODY_CHARS with LIMIT_EXCEEDED', () => {
    const long = 'x'.repeat(APPROVAL_BODY_CHARS)
    expect(validateApproval({ tool: 'Bash', action: { kind: 'command', command: long } }, DEFAULT_LIMITS).ok).toBe(true)
    expect(
      validateApproval({ tool: 'Bash', action: { kind: 'command', command: long + 'x' } }, DEFAULT_LIMITS),
    ).toEqual({
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: `limit exceeded: "approval.action.command" has ${APPROVAL_BODY_CHARS + 1} characters; at most ${APPROVAL_BODY_CHARS} are allowed`,
    })
    const cwd = 'c'.repeat(DEFAULT_LIMITS.textChars + 1)
    expect(validateApproval({ ...bash, action: { ...bash.action, cwd } }, DEFAULT_LIMITS)).toMatchObject({
      code: 'LIMIT_EXCEEDED',
    })
  })
})

describe('decisions', () => {
  it('are allow (maybe always) or deny (maybe with a message)', () => {
    for (const decision of [
      { behavior: 'allow' },
      { behavior: 'allow', always: true },
      { behavior: 'deny' },
      { behavior: 'deny', message: 'no' },
    ]) {
      expect(ApprovalDecisionSchema.parse(decision)).toEqual(decision)
    }
    expect(ApprovalDecisionSchema.safeParse({ behavior: 'maybe' }).success).toBe(false)
    expect(ApprovalDecisionSchema.safeParse({ behavior: 'allow', always: false }).success).toBe(false)
  })
  it('refuse an always the request did not offer', () => {
    const once = { ...bash, always: undefined }
    expect(decisionProblem(once, { behavior: 'allow', always: true })).toMatch(/no "always allow"/)
    expect(decisionProblem(bash, { behavior: 'allow', always: true })).toBeUndefined()
    expect(decisionProblem(once, { behavior: 'deny', message: 'x' })).toBeUndefined()
  })
})

describe('notices', () => {
  it('are checked for kind and text', () => {
    expect(validateNotice({ kind: 'turn-complete', text: 'done' }, DEFAULT_LIMITS).ok).toBe(true)
    expect(validateNotice({ kind: 'shout', text: 'x' }, DEFAULT_LIMITS)).toMatchObject({ code: 'INVALID_ARGS' })
    expect(
      validateNotice({ kind: 'info', text: 'x'.repeat(DEFAULT_LIMITS.textChars + 1) }, DEFAULT_LIMITS),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED' })
  })
})

describe('frames', () => {
  it('carry approve, notice, decision and ask/decide', () => {
    expect(AgentFrameSchema.parse({ type: 'approve', id: 'a1', approval: bash }).type).toBe('approve')
    expect(AgentFrameSchema.parse({ type: 'notice', notice: { kind: 'info', text: 'hi' } }).type).toBe('notice')
    expect(
      CompanionFrameSchema.parse({ type: 'decision', id: 'a1', decision: { behavior: 'deny', message: 'not now' } }),
    ).toEqual({
      type: 'decision',
      id: 'a1',
      decision: { behavior: 'deny', message: 'not now' },
    })
    expect(UiClientFrameSchema.parse({ type: 'ask/decide', askId: 'k', decision: { behavior: 'allow' } }).type).toBe(
      'ask/decide',
    )
  })
  it('summarise an approval in one line', () => {
    expect(approvalSummary(bash)).toBe('run: npm test')
    expect(approvalSummary({ tool: 'Edit', action: { kind: 'file', path: 'a.ts' } })).toBe('edit a.ts')
  })
})
