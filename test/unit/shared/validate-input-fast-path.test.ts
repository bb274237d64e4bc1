import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkLimits } from '../../../shared/limits-check'
import { LimitsSchema } from '../../../shared/limits'
import { AskUserQuestionInputSchema } from '../../../shared/tool-input'
import { readExtras } from '../../../shared/question-extras'
import { validateAskInput, validateToolInput } from '../../../shared/validate-input'

// validateToolInput accepts the common case by hand (no zod copy) and leaves everything else to zod.
// The two must agree on what is valid: this compares it with the zod-only definition on inputs that
// are mostly near-valid, so both branches and every cap are exercised.
const small = LimitsSchema.parse({ questionsPerAsk: 3, optionsPerQuestion: 3, textChars: 5 })

const text = fc.oneof(fc.string({ maxLength: 7 }), fc.constant(undefined), fc.constant(null), fc.integer())
const option = fc.oneof(
  fc.record({ label: text, description: text }, { requiredKeys: ['label'] }),
  fc.record({ label: fc.string({ maxLength: 7 }), extra: fc.jsonValue() }),
  fc.jsonValue(),
)
const question = fc.oneof(
  fc.record(
    {
      id: text,
      question: text,
      header: text,
      options: fc.oneof(fc.array(option, { maxLength: 4 }), fc.jsonValue()),
      multi_select: fc.oneof(fc.boolean(), fc.constant(undefined), fc.constant('yes')),
      detail: text,
      intent: fc.oneof(
        fc.record({ kind: fc.constantFrom('plan-review', 'other', 3), approve: fc.oneof(fc.string({ maxLength: 2 }), fc.integer()) }, { requiredKeys: ['kind'] }),
        fc.jsonValue(),
      ),
      other: fc.jsonValue(),
    },
    { requiredKeys: ['id', 'question'] },
  ),
  fc.jsonValue(),
)
const args = fc.oneof(
  fc.record({ questions: fc.array(question, { maxLength: 4 }), extra: fc.jsonValue() }, { requiredKeys: ['questions'] }),
  fc.jsonValue(),
)

/** The tool's rule without the hand check: the tool schema, a non-empty batch, the caps (detail is dropped). */
function zodOnlyValid(input: unknown): boolean {
  const parsed = AskUserQuestionInputSchema.safeParse(input)
  if (!parsed.success || parsed.data.questions.length === 0) return false
  const questions = parsed.data.questions.map(({ detail: _dropped, ...question }) => question)
  return checkLimits({ questions }, small).length === 0
}

/** The protocol's rule without the hand check: the tool schema, then detail and intent, then the caps. */
function zodOnlyValidAsk(input: unknown): boolean {
  const parsed = AskUserQuestionInputSchema.safeParse(input)
  if (!parsed.success || parsed.data.questions.length === 0) return false
  if (parsed.data.questions.some((question, q) => readExtras(question, `questions[${q}]`).problems.length > 0)) return false
  return checkLimits(parsed.data, small).length === 0
}

describe('validateAskInput fast path', () => {
  it('agrees with the schema, the detail and intent rules and the caps on every input', () => {
    fc.assert(
      fc.property(args, (input) => {
        expect(validateAskInput(input, small).ok).toBe(zodOnlyValidAsk(input))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('validateToolInput fast path', () => {
  it('agrees with the zod schema and the caps on every input', () => {
    fc.assert(
      fc.property(args, (input) => {
        expect(validateToolInput(input, small).ok).toBe(zodOnlyValid(input))
      }),
      { numRuns: 3000 },
    )
  })

  it('returns the input itself for a valid ask, extra root and option keys kept', () => {
    const input = { questions: [{ id: 'a', question: 'b', options: [{ label: 'x', note: 1 }] }], trace: 't' }
    const check = validateToolInput(input)
    expect(check.ok && check.input).toBe(input)
  })
})
