import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS, LimitsSchema } from '../../../shared/limits'
import { EMPTY_QUESTIONS_MESSAGE, validateAskInput, validateToolInput } from '../../../shared/validate-input'

const invalid = (args: unknown): string => {
  const check = validateToolInput(args)
  if (check.ok) throw new Error('expected the arguments to be refused')
  expect(check.code).toBe('INVALID_ARGS')
  return check.message
}

describe('argument errors (INVALID_ARGS), worded as upstream', () => {
  it.each([
    [null, '"arguments" must be an object'],
    [undefined, '"arguments" must be an object'],
    [42, '"arguments" must be an object'],
    ['questions', '"arguments" must be an object'],
    [[], '"arguments" must be an object'],
    [{}, 'missing required property "questions"'],
    [{ questions: 'x' }, '"questions" must be an array'],
    [{ questions: {} }, '"questions" must be an array'],
    [{ questions: [null] }, '"questions[0]" must be an object'],
    [{ questions: [{ question: 'q' }] }, 'missing required property "questions[0].id"'],
    [{ questions: [{ id: undefined, question: 'q' }] }, 'missing required property "questions[0].id"'],
    [{ questions: [{ id: 'a' }] }, 'missing required property "questions[0].question"'],
    [{ questions: [{ id: 1, question: 'q' }] }, '"questions[0].id" must be a string'],
    [{ questions: [{ id: null, question: 'q' }] }, '"questions[0].id" must be a string'],
    [{ questions: [{ id: 'a', question: 'q', header: 3 }] }, '"questions[0].header" must be a string'],
    [{ questions: [{ id: 'a', question: 'q', multi_select: 'yes' }] }, '"questions[0].multi_select" must be a boolean'],
    [{ questions: [{ id: 'a', question: 'q', options: 'x' }] }, '"questions[0].options" must be an array'],
    [{ questions: [{ id: 'a', question: 'q', options: [null] }] }, '"questions[0].options[0]" must be an object'],
    [
      { questions: [{ id: 'a', question: 'q', options: [{}] }] },
      'missing required property "questions[0].options[0].label"',
    ],
    [
      { questions: [{ id: 'a', question: 'q', options: [{ label: 'x', description: 4 }] }] },
      '"questions[0].options[0].description" must be a string',
    ],
  ])('%j → %s', (args, violation) => {
    expect(invalid(args)).toBe(`invalid arguments: ${violation}`)
  })

  it('joins every violation with "; " and names later questions by index', () => {
    expect(invalid({ questions: [{ id: 'ok', question: 'fine' }, {}] })).toBe(
      'invalid arguments: missing required property "questions[1].id"; missing required property "questions[1].question"',
    )
  })

  it('lists missing properties first, then type errors, as upstream', () => {
    expect(invalid({ questions: [{ id: 5 }] })).toBe(
      'invalid arguments: missing required property "questions[0].question"; "questions[0].id" must be a string',
    )
    expect(invalid({ questions: [{ id: 5, header: 1 }, { question: 'q' }] })).toBe(
      'invalid arguments: missing required property "questions[0].question"; missing required property "questions[1].id"; ' +
        '"questions[0].id" must be a string; "questions[0].header" must be a string',
    )
  })

  it('accepts extra keys at every level; drops the question keys the tool does not name, as upstream', () => {
    const check = validateToolInput({
      questions: [
        {
          id: 'a',
          question: 'q',
          extra: 1,
          detail: '# plan',
          intent: { kind: 'plan-review', approve: 'x' },
          options: [{ label: 'x', more: true }],
        },
      ],
      other: 'kept',
    })
    expect(check.ok).toBe(true)
    if (check.ok)
      expect(check.value).toEqual({
        other: 'kept',
        questions: [{ id: 'a', question: 'q', options: [{ label: 'x', more: true }] }],
      })
  })

  it('drops detail and intent from the model whatever their shape (no INVALID_ARGS for them)', () => {
    const check = validateToolInput({ questions: [{ id: 'a', question: 'q', detail: 5, intent: 'plan' }] })
    expect(check).toEqual({ ok: true, value: { questions: [{ id: 'a', question: 'q' }] } })
  })
  it('never throws on arbitrary JSON, and any refusal has a known code (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const check = validateToolInput(value)
        if (!check.ok) {
          expect(['INVALID_ARGS', 'EMPTY_QUESTIONS', 'LIMIT_EXCEEDED']).toContain(check.code)
          expect(check.message.length).toBeGreaterThan(0)
        }
      }),
    )
  })
})

describe('EMPTY_QUESTIONS', () => {
  it('refuses an empty batch after the shape check', () => {
    expect(validateToolInput({ questions: [] })).toEqual({
      ok: false,
      code: 'EMPTY_QUESTIONS',
      message: EMPTY_QUESTIONS_MESSAGE,
    })
  })
})

describe('LIMIT_EXCEEDED caps', () => {
  const limits = LimitsSchema.parse({ questionsPerAsk: 2, optionsPerQuestion: 2, textChars: 5 })
  const q = (extra: object = {}): object => ({ id: 'a', question: 'q', ...extra })
  const exceeded = (args: unknown): string => {
    const check = validateToolInput(args, limits)
    if (check.ok) throw new Error('expected a limit to be exceeded')
    expect(check.code).toBe('LIMIT_EXCEEDED')
    return check.message
  }

  it.each([
    ['questions per ask', { questions: [q(), q(), q()] }, '"questions" has 3 items; at most 2 are allowed'],
    [
      'options per question',
      { questions: [q({ options: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] })] },
      '"questions[0].options" has 3 items; at most 2 are allowed',
    ],
    ['id length', { questions: [q({ id: '123456' })] }, '"questions[0].id" has 6 characters; at most 5 are allowed'],
    [
      'question length',
      { questions: [q({ question: 'long q' })] },
      '"questions[0].question" has 6 characters; at most 5 are allowed',
    ],
    [
      'header length',
      { questions: [q({ header: 'header' })] },
      '"questions[0].header" has 6 characters; at most 5 are allowed',
    ],
    [
      'label length',
      { questions: [q({ options: [{ label: 'label!' }] })] },
      '"questions[0].options[0].label" has 6 characters; at most 5 are allowed',
    ],
    [
      'description length',
      { questions: [q({ options: [{ label: 'l', description: 'sixsix' }] })] },
      '"questions[0].options[0].description" has 6 characters; at most 5 are allowed',
    ],
  ])('%s', (_name, args, violation) => {
    expect(exceeded(args)).toBe(`limit exceeded: ${violation}`)
  })

  it('reports every overflow at once', () => {
    expect(exceeded({ questions: [q({ id: '123456', header: 'header' })] })).toBe(
      'limit exceeded: "questions[0].id" has 6 characters; at most 5 are allowed; ' +
        '"questions[0].header" has 6 characters; at most 5 are allowed',
    )
  })

  it('accepts values exactly at the caps, and the defaults are the documented ones', () => {
    expect(validateToolInput({ questions: [q({ id: '12345' }), q()] }, limits).ok).toBe(true)
    expect(DEFAULT_LIMITS).toMatchObject({
      frameBytes: 1024 * 1024,
      questionsPerAsk: 50,
      optionsPerQuestion: 50,
      textChars: 20_000,
      pendingPerConnection: 64,
      pendingTotal: 16_384,
      connections: 1024,
    })
    const fifty = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, question: 'q' }))
    expect(validateToolInput({ questions: fifty }).ok).toBe(true)
    expect(validateToolInput({ questions: [...fifty, q()] })).toMatchObject({ ok: false, code: 'LIMIT_EXCEEDED' })
    expect(validateToolInput({ questions: [q({ question: 'x'.repeat(20_001) })] })).toMatchObject({
      ok: false,
      code: 'LIMIT_EXCEEDED',
    })
  })

  it('checks the shape before the caps', () => {
    expect(validateToolInput({ questions: [q({ id: 7 }), q(), q()] }, limits)).toMatchObject({ code: 'INVALID_ARGS' })
  })
})

describe('validateAskInput (protocol v1 clients: detail and intent)', () => {
  const planQuestion = {
    id: 'plan',
    question: 'Approve this plan?',
    detail: '1. migrate\n2. deploy',
    options: [{ label: 'Approve' }, { label: 'Revise' }],
    intent: { kind: 'plan-review', approve: 'Approve' },
  }

  it('keeps detail and a plan-review intent', () => {
    const input = { questions: [planQuestion] }
    const check = validateAskInput(input)
    expect(check.ok && check.value).toEqual(input)
  })

  it('refuses an approve label that is not one of the options with INVALID_ARGS', () => {
    expect(
      validateAskInput({ questions: [{ ...planQuestion, intent: { kind: 'plan-review', approve: 'Ship it' } }] }),
    ).toEqual({
      ok: false,
      code: 'INVALID_ARGS',
      message:
        'invalid arguments: "questions[0].intent.approve" must be one of the question\'s option labels; "Ship it" is not',
    })
    expect(
      validateAskInput({ questions: [{ id: 'a', question: 'q', intent: { kind: 'plan-review' } }] }),
    ).toMatchObject({
      code: 'INVALID_ARGS',
      message: 'invalid arguments: missing required property "questions[0].intent.approve"',
    })
  })

  it('refuses a detail that is not a string and an intent that is not an object', () => {
    expect(validateAskInput({ questions: [{ id: 'a', question: 'q', detail: 5, intent: 'plan' }] })).toEqual({
      ok: false,
      code: 'INVALID_ARGS',
      message: 'invalid arguments: "questions[0].detail" must be a string; "questions[0].intent" must be an object',
    })
    expect(validateAskInput({ questions: [{ id: 'a', question: 'q', intent: { kind: 3 } }] })).toMatchObject({
      message: 'invalid arguments: "questions[0].intent.kind" must be a string',
    })
  })

  it('lists every extras problem of every question, key by key: detail, secret, intent', () => {
    const options = [{ label: 'Go' }]
    const questions = [
      { id: 'a', question: 'q', options, detail: null, secret: true, intent: { kind: 'plan-review', approve: 'Stop' } },
      { id: 'b', question: 'q', secret: 'yes', intent: {} },
    ]
    expect(validateAskInput({ questions })).toEqual({
      ok: false,
      code: 'INVALID_ARGS',
      message:
        'invalid arguments: "questions[0].detail" must be a string; ' +
        '"questions[0].secret" is only allowed on a question with no options; ' +
        '"questions[0].intent.approve" must be one of the question\'s option labels; "Stop" is not; ' +
        '"questions[1].secret" must be a boolean; missing required property "questions[1].intent.kind"',
    })
  })

  it('ignores an intent of an unknown kind (the question is an ordinary one)', () => {
    const check = validateAskInput({
      questions: [{ id: 'a', question: 'q', intent: { kind: 'future-kind', extra: 1 } }],
    })
    expect(check).toEqual({ ok: true, value: { questions: [{ id: 'a', question: 'q' }] } })
  })

  it('caps detail like every text field (LIMIT_EXCEEDED)', () => {
    const limits = LimitsSchema.parse({ textChars: 5 })
    expect(validateAskInput({ questions: [{ id: 'a', question: 'q', detail: '123456' }] }, limits)).toEqual({
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: 'limit exceeded: "questions[0].detail" has 6 characters; at most 5 are allowed',
    })
  })
})
