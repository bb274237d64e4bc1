import { describe, expect, it } from 'vitest'
import type { AskAnswer } from '../../../shared/answer'
import { acceptAnswer, checkAnswer, type AnswerViolationCode, type CheckedAnswer } from '../../../shared/answer-rules'
import type { Question } from '../../../shared/tool-input'

const single: Question = {
  id: 'db',
  question: 'Which database?',
  options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
}
const multi: Question = {
  id: 'targets',
  question: 'What should ship?',
  multi_select: true,
  options: [{ label: 'tests' }, { label: 'docs' }],
}
const open: Question = { id: 'notes', question: 'Anything else?' }
const questions = [single, multi, open]

const codes = (answer: AskAnswer, qs: Question[] = questions): AnswerViolationCode[] =>
  checkAnswer(qs, answer).map((v) => v.code)

describe('checkAnswer', () => {
  it('accepts valid answers: labels verbatim, skips, multi with custom, single custom alone', () => {
    expect(
      checkAnswer(questions, {
        answers: [
          { id: 'db', selected: ['Postgres (Recommended)'] },
          { id: 'targets', selected: ['tests', 'docs'], custom: 'release notes' },
          { id: 'notes', selected: [], custom: 'ship today' },
        ],
      }),
    ).toEqual([])
    expect(
      checkAnswer(questions, {
        answers: [
          { id: 'db', selected: [], custom: 'MySQL' },
          { id: 'targets', selected: [] },
          { id: 'notes', selected: [] },
        ],
      }),
    ).toEqual([])
  })

  it('ANSWER_COUNT: too few or too many answers', () => {
    const few = checkAnswer(questions, { answers: [{ id: 'db', selected: [] }] })
    expect(few).toEqual([{ code: 'ANSWER_COUNT', message: 'expected 3 answer(s), one per question, got 1' }])
    expect(
      codes(
        {
          answers: [
            { id: 'notes', selected: [] },
            { id: 'x', selected: [] },
          ],
        },
        [open],
      ),
    ).toContain('ANSWER_COUNT')
  })

  it('ID_MISMATCH: answers out of order or with a wrong id', () => {
    const violations = checkAnswer([single, open], {
      answers: [
        { id: 'notes', selected: [] },
        { id: 'db', selected: [] },
      ],
    })
    expect(violations.map((v) => [v.code, v.index])).toEqual([
      ['ID_MISMATCH', 0],
      ['ID_MISMATCH', 1],
    ])
    expect(violations[0]!.message).toBe('answer 1 ("db"): id is "notes", expected "db"')
  })

  it('UNKNOWN_LABEL: a label not offered, or not verbatim (marker stripped, other case)', () => {
    expect(codes({ answers: [{ id: 'db', selected: ['Postgres'] }] }, [single])).toEqual(['UNKNOWN_LABEL'])
    expect(codes({ answers: [{ id: 'db', selected: ['sqlite'] }] }, [single])).toEqual(['UNKNOWN_LABEL'])
    expect(codes({ answers: [{ id: 'notes', selected: ['anything'] }] }, [open])).toEqual(['UNKNOWN_LABEL'])
    expect(checkAnswer([single], { answers: [{ id: 'db', selected: ['Oracle'] }] })[0]!.message).toBe(
      'answer 1 ("db"): "Oracle" is not one of the options',
    )
  })

  it('DUPLICATE_LABEL: the same label twice', () => {
    expect(codes({ answers: [{ id: 'targets', selected: ['docs', 'docs'] }] }, [multi])).toEqual(['DUPLICATE_LABEL'])
  })

  it('TOO_MANY_LABELS: single-select with two labels', () => {
    const violations = checkAnswer([single], {
      answers: [{ id: 'db', selected: ['SQLite', 'Postgres (Recommended)'] }],
    })
    expect(violations).toEqual([
      {
        code: 'TOO_MANY_LABELS',
        index: 0,
        message: 'answer 1 ("db"): single-select question, but 2 options are selected',
      },
    ])
  })

  it('CUSTOM_WITH_LABEL: single-select answered in own words must select nothing', () => {
    expect(codes({ answers: [{ id: 'db', selected: ['SQLite'], custom: 'or MySQL' }] }, [single])).toEqual([
      'CUSTOM_WITH_LABEL',
    ])
    expect(codes({ answers: [{ id: 'targets', selected: ['docs'], custom: 'also x' }] }, [multi])).toEqual([])
    expect(codes({ answers: [{ id: 'db', selected: ['SQLite'] }] }, [{ ...single, multi_select: false }])).toEqual([])
  })

  it('BLANK_CUSTOM: empty or whitespace-only custom', () => {
    expect(codes({ answers: [{ id: 'notes', selected: [], custom: '' }] }, [open])).toEqual(['BLANK_CUSTOM'])
    expect(codes({ answers: [{ id: 'notes', selected: [], custom: ' \n\t' }] }, [open])).toEqual(['BLANK_CUSTOM'])
  })

  it('CUSTOM_TOO_LONG: a custom answer over the cap the companion passes', () => {
    const answer = { answers: [{ id: 'notes', selected: [], custom: 'x'.repeat(11) }] }
    expect(checkAnswer([open], answer, 10).map((v) => [v.code, v.message])).toEqual([
      ['CUSTOM_TOO_LONG', 'answer 1 ("notes"): the custom answer has 11 characters; at most 10 are allowed'],
    ])
    expect(checkAnswer([open], answer, 11)).toEqual([])
    expect(checkAnswer([open], answer)).toEqual([])
  })

  it('reports every violation at once', () => {
    expect(
      codes({
        answers: [
          { id: 'db', selected: ['SQLite', 'SQLite', 'x'], custom: ' ' },
          { id: 'targets', selected: [] },
        ],
      }),
    ).toEqual([
      'ANSWER_COUNT',
      'DUPLICATE_LABEL',
      'UNKNOWN_LABEL',
      'TOO_MANY_LABELS',
      'CUSTOM_WITH_LABEL',
      'BLANK_CUSTOM',
    ])
  })
})

describe('acceptAnswer', () => {
  it('lets a rule-abiding answer through as the same object, typed CheckedAnswer, and lists what breaks', () => {
    const answer = { answers: [{ id: 'notes', selected: [], custom: 'ship it' }] }
    const check = acceptAnswer([open], answer)
    expect(check).toEqual({ ok: true, answer })
    if (check.ok) expect(check.answer).toBe(answer)
    expect(acceptAnswer([open], { answers: [] })).toEqual({
      ok: false,
      violations: checkAnswer([open], { answers: [] }),
    })
    expect(acceptAnswer([open], { answers: [{ id: 'notes', selected: [], custom: 'toolong' }] }, 3)).toMatchObject({
      ok: false,
      violations: [{ code: 'CUSTOM_TOO_LONG' }],
    })
  })

  it('is the only way to a CheckedAnswer (type level)', () => {
    // @ts-expect-error: a plain AskAnswer has not been checked
    const unchecked: CheckedAnswer = { answers: [] }
    expect(unchecked).toEqual({ answers: [] })
  })
})
