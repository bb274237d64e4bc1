import { describe, expect, it } from 'vitest'
import { EXTRA_CHARS, EXTRA_VALUE_CHARS, cutMarker, extraText, leftoverFields } from '../../../shared/approval-extra'
import { approvalLine, type ApprovalRequest } from '../../../shared/approval'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { validateApproval } from '../../../shared/validate-approval'

describe('extra: the input fields an action does not show', () => {
  it('keeps every key not shown, in input order, and nothing for a non-object', () => {
    expect(leftoverFields({ command: 'ls', timeout: 5, dangerouslyDisableSandbox: true }, ['command'])).toEqual({
      timeout: 5,
      dangerouslyDisableSandbox: true,
    })
    expect(leftoverFields(['a'], [])).toEqual({})
    expect(leftoverFields(null, [])).toEqual({})
    expect(extraText({})).toBeUndefined()
  })

  it('a __proto__ key from JSON is kept as a field, not as a prototype', () => {
    const fields = leftoverFields(JSON.parse('{"command":"ls","__proto__":{"polluted":true}}'), ['command'])
    expect(Object.keys(fields)).toEqual(['__proto__'])
    expect(extraText(fields)).toContain('"__proto__"')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('a long value is cut with a marker and the keys after it still show', () => {
    const text = extraText({ padding: 'x'.repeat(EXTRA_VALUE_CHARS + 500), dangerouslyDisableSandbox: true })!
    expect(text).toContain(cutMarker(500))
    expect(text).toContain('"dangerouslyDisableSandbox": true')
    expect(text.length).toBeLessThan(EXTRA_VALUE_CHARS + 200)
  })

  it('the whole text is capped with a marker that says how much is missing', () => {
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key${i}`, 'v'.repeat(20)]))
    const full = JSON.stringify(many, null, 2)
    const text = extraText(many)!
    expect(text.startsWith(full.slice(0, EXTRA_CHARS))).toBe(true)
    expect(text.endsWith(cutMarker(full.length - EXTRA_CHARS))).toBe(true)
  })
})

describe('extra and warnings on the wire (new optional fields of protocol v1)', () => {
  const request: ApprovalRequest = {
    tool: 'Bash',
    action: { kind: 'command', command: 'make' },
    extra: '{\n  "run_in_background": true\n}',
    warnings: [{ code: 'RUNS_IN_BACKGROUND', message: 'Keeps running in the background.' }],
  }

  it('are kept by the check (not stripped as unknown keys)', () => {
    expect(validateApproval(request, DEFAULT_LIMITS)).toEqual({ ok: true, value: request })
  })

  it('a warning code that is not UPPER_SNAKE is INVALID_ARGS', () => {
    const checked = validateApproval({ ...request, warnings: [{ code: 'runs-in-bg', message: 'x' }] }, DEFAULT_LIMITS)
    expect(checked).toMatchObject({ ok: false, code: 'INVALID_ARGS' })
  })

  it('an extra or a warning over its cap is LIMIT_EXCEEDED, named', () => {
    const limits = { ...DEFAULT_LIMITS, textChars: 10 }
    const checked = validateApproval(
      { ...request, extra: 'x'.repeat(200_001), warnings: [{ code: 'X', message: 'y'.repeat(11) }] },
      limits,
    )
    expect(checked.ok).toBe(false)
    if (!checked.ok) {
      expect(checked.code).toBe('LIMIT_EXCEEDED')
      expect(checked.message).toContain('"approval.extra" has 200001 characters')
      expect(checked.message).toContain('"approval.warnings[0].message" has 11 characters')
    }
  })
})

describe('one line for notifications and the tray leads a URL with its real host', () => {
  it('a user name trick and a look-alike host read as their real host', () => {
    const line = approvalLine('Claude Code', {
      tool: 'WebFetch',
      action: { kind: 'url', url: 'https://github.com@аpple.com/x' },
    })
    expect(line).toBe('Claude Code wants to fetch xn--pple-43d.com (https://github.com@аpple.com/x)')
  })
})
