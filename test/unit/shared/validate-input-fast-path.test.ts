import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkLimits } from '../../../shared/limits-check'
import { LimitsSchema } from '../../../shared/limits'
import { AskUserQuestionInputSchema } from '../../../shared/tool-input'
import { validateToolInput } from '../../../shared/validate-input'

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

function zodOnlyValid(input: unknown): boolean {
  const parsed = AskUserQuestionInputSchema.safeParse(input)
  return parsed.success && parsed.data.questions.length > 0 && checkLimits(parsed.data, small).length === 0
}

describe('validateToolInput fast path', () => {
  it('agrees with the zod schema and the caps on every input', () => {
    fc.assert(
      fc.property(args, (input) => {
        expect(validateToolInput(input, small).ok).toBe(zodOnlyValid(input))
      }),
      { numRuns: 3000 },
    )
  })

  it('returns the input itself for a valid ask, extra keys kept', () => {
    const input = { questions: [{ id: 'a', question: 'b', options: [{ label: 'x', note: 1 }] }], trace: 't' }
    const check = validateToolInput(input)
    expect(check.ok && check.input).toBe(input)
  })
})
