import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AskAnswerSchema, canonicalAnswer, renderAnswer, type AskAnswer } from '../../../shared/answer'

describe('renderAnswer', () => {
  it('renders upstream test vectors byte for byte', () => {
    expect(renderAnswer({ answers: [{ id: 'pkg', selected: ['pnpm'] }] })).toBe(
      '{"answers":[{"id":"pkg","selected":["pnpm"]}]}',
    )
    expect(
      renderAnswer({
        answers: [
          { id: 'targets', selected: ['tests', 'docs'] },
          { id: 'notes', selected: [], custom: 'ship today' },
        ],
      }),
    ).toBe(
      '{"answers":[{"id":"targets","selected":["tests","docs"]},{"id":"notes","selected":[],"custom":"ship today"}]}',
    )
    expect(renderAnswer({ answers: [{ id: 'targets', selected: ['tests', 'docs'], custom: 'release notes' }] })).toBe(
      '{"answers":[{"id":"targets","selected":["tests","docs"],"custom":"release notes"}]}',
    )
  })

  it('puts keys in the order id, selected, custom whatever order they came in', () => {
    const scrambled = { custom: 'c', selected: ['a'], id: 'x' }
    expect(renderAnswer({ answers: [scrambled] })).toBe('{"answers":[{"id":"x","selected":["a"],"custom":"c"}]}')
  })

  it('omits an unused custom (absent or undefined) and drops unknown keys', () => {
    const withUndefined = { id: 'x', selected: [], custom: undefined }
    const withExtra = { id: 'y', selected: ['b'], extra: 1 } as { id: string; selected: string[] }
    expect(renderAnswer({ answers: [withUndefined, withExtra] })).toBe(
      '{"answers":[{"id":"x","selected":[]},{"id":"y","selected":["b"]}]}',
    )
  })

  it('keeps labels verbatim, "(Recommended)" included, and an empty answer list', () => {
    expect(renderAnswer({ answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] })).toBe(
      '{"answers":[{"id":"db","selected":["Postgres (Recommended)"]}]}',
    )
    expect(renderAnswer({ answers: [] })).toBe('{"answers":[]}')
  })

  it('canonicalAnswer copies the selection instead of sharing it', () => {
    const original = { id: 'a', selected: ['x'] }
    const copy = canonicalAnswer(original)
    copy.selected.push('y')
    expect(original.selected).toEqual(['x'])
  })
})

const answerArb = fc.record(
  { id: fc.string(), selected: fc.array(fc.string()), custom: fc.string() },
  { requiredKeys: ['id', 'selected'] },
)
const askAnswerArb = fc.record({ answers: fc.array(answerArb, { maxLength: 8 }) })

describe('renderAnswer round trip (property)', () => {
  it('any valid answer renders to compact JSON that parses back to the same value, keys in order', () => {
    fc.assert(
      fc.property(askAnswerArb, (answer: AskAnswer) => {
        const text = renderAnswer(answer)
        const back: unknown = JSON.parse(text)
        // Compare against the JSON image of the canonical value (TOOLCHAIN G7: -0 and friends).
        const image: unknown = JSON.parse(JSON.stringify({ answers: answer.answers.map(canonicalAnswer) }))
        expect(back).toEqual(image)
        expect(AskAnswerSchema.parse(back)).toEqual(image)
        expect(text).toBe(JSON.stringify(back))
        for (const entry of (back as AskAnswer).answers) {
          const keys = Object.keys(entry)
          expect(keys).toEqual(entry.custom === undefined ? ['id', 'selected'] : ['id', 'selected', 'custom'])
        }
      }),
    )
  })
})
