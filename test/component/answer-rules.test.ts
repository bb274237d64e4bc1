import { cleanup, render, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import QuestionCard from '../../renderer/src/components/QuestionCard.svelte'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { EMPTY_QUESTION_DRAFT } from '../../renderer/src/lib/draft'
import { violationText } from '../../renderer/src/lib/violation-text'
import { checkAnswer, type AnswerViolation, type AnswerViolationCode } from '../../shared/answer-rules'
import type { Question } from '../../shared/tool-input'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => {
  sessionStorage.clear()
  i18n.lang = 'en'
})
afterEach(cleanup)

const single: Question = {
  id: 'pkg',
  question: 'Which package manager?',
  options: [{ label: 'pnpm' }, { label: 'npm' }],
}

/** One real violation of each rule, produced by the shared checkAnswer itself. */
const EXAMPLES: Record<AnswerViolationCode, [AnswerViolation, string]> = {
  ANSWER_COUNT: [checkAnswer([single], { answers: [] })[0]!, 'The answer must have one entry per question.'],
  ID_MISMATCH: [
    checkAnswer([single], { answers: [{ id: 'x', selected: [] }] })[0]!,
    'This answer does not belong to this question.',
  ],
  UNKNOWN_LABEL: [
    checkAnswer([single], { answers: [{ id: 'pkg', selected: ['bun'] }] })[0]!,
    '“bun” is not one of the offered options.',
  ],
  DUPLICATE_LABEL: [
    checkAnswer([{ ...single, multi_select: true }], { answers: [{ id: 'pkg', selected: ['npm', 'npm'] }] })[0]!,
    '“npm” is selected twice.',
  ],
  TOO_MANY_LABELS: [
    checkAnswer([single], { answers: [{ id: 'pkg', selected: ['pnpm', 'npm'] }] })[0]!,
    'Only one option may be picked here.',
  ],
  SECRET_UNANSWERED: [
    checkAnswer([{ id: 'pw', question: 'Password?', secret: true }], { answers: [{ id: 'pw', selected: [] }] })[0]!,
    'A password cannot be skipped; type it or dismiss.',
  ],
  CUSTOM_WITH_LABEL: [
    checkAnswer([single], { answers: [{ id: 'pkg', selected: ['npm'], custom: 'bun' }] })[0]!,
    'Pick an option or answer in your own words, not both.',
  ],
  BLANK_CUSTOM: [
    checkAnswer([single], { answers: [{ id: 'pkg', selected: [], custom: '  ' }] })[0]!,
    'Your own answer is blank.',
  ],
  CUSTOM_TOO_LONG: [
    checkAnswer([single], { answers: [{ id: 'pkg', selected: [], custom: 'too long' }] }, 3)[0]!,
    'Your own answer is longer than the companion accepts; shorten it.',
  ],
}

describe('every answer rule has words next to its question', () => {
  for (const [code, [violation, text]] of Object.entries(EXAMPLES)) {
    it(code, () => {
      expect(violation.code).toBe(code)
      expect(violationText(violation, (key, params) => i18n.t(key, params))).toBe(text)
      render(QuestionCard, {
        props: {
          question: single,
          index: 0,
          total: 1,
          name: 'q',
          draft: EMPTY_QUESTION_DRAFT,
          violations: [violation],
          unanswered: false,
          disabled: false,
          readonly: false,
          onPick: () => {},
          onCustom: () => {},
          onSkip: () => {},
        },
      })
      const problems = screen.getByTestId('question-problems')
      expect(problems.getAttribute('role')).toBe('alert')
      expect(problems.textContent).toBe(text)
      expect(screen.getByTestId('question').getAttribute('aria-describedby')).toBe(problems.id)
    })
  }

  it('speaks Chinese too', () => {
    i18n.lang = 'zh'
    expect(violationText(EXAMPLES.UNKNOWN_LABEL[0], (key, params) => i18n.t(key, params))).toBe('“bun” 不是可选项。')
  })
})

describe('broken drafts are refused in the window, with the reason shown', () => {
  async function sendRefused(draft: unknown, question: Question, expected: string) {
    sessionStorage.setItem('ask-user.draft.bad', JSON.stringify(draft))
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'bad', questions: [question] })])
    const submit = screen.getByRole('button', { name: 'Send answer' })
    expect(submit.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByTestId('question-problems').textContent).toBe(expected)
    await user.click(submit)
    expect(bridge.answered).toEqual([])
  }

  it('a label no longer offered (UNKNOWN_LABEL)', () =>
    sendRefused(
      [{ selected: ['bun'], custom: '', skipped: false }],
      single,
      '“bun” is not one of the offered options.',
    ))

  it('two picks in a single-select (TOO_MANY_LABELS)', () =>
    sendRefused(
      [{ selected: ['pnpm', 'npm'], custom: '', skipped: false }],
      single,
      'Only one option may be picked here.',
    ))

  it('two options with one label both show, and picking either sends the label once', async () => {
    const dup: Question = { id: 'd', question: 'Which?', multi_select: true, options: [{ label: 'A' }, { label: 'A' }] }
    const one: Question = { id: 's', question: 'Pick', options: [{ label: 'B' }, { label: 'B' }] }
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'dup', questions: [dup, one] })])
    expect(screen.getAllByRole('checkbox').map((box) => box.getAttribute('value'))).toEqual(['A', 'A'])
    expect(screen.getAllByRole('radio').map((box) => box.getAttribute('value'))).toEqual(['B', 'B'])
    await user.click(screen.getAllByRole('checkbox')[0]!)
    await user.click(screen.getAllByRole('radio')[1]!)
    expect(screen.queryByTestId('question-problems')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([
      {
        askId: 'dup',
        answers: [
          { id: 'd', selected: ['A'] },
          { id: 's', selected: ['B'] },
        ],
      },
    ])
  })

  it('fixing the draft lets it through', async () => {
    sessionStorage.setItem('ask-user.draft.fix', JSON.stringify([{ selected: ['bun'], custom: '', skipped: false }]))
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'fix', questions: [single] })])
    await user.click(screen.getByRole('radio', { name: 'npm' }))
    expect(screen.queryByTestId('question-problems')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([{ askId: 'fix', answers: [{ id: 'pkg', selected: ['npm'] }] }])
  })
})
