import type { Answer } from '../../../shared/answer'
import { checkAnswer, type AnswerViolation } from '../../../shared/answer-rules'
import { isMultiSelect, type Question } from '../../../shared/tool-input'
import { EMPTY_QUESTION_DRAFT, questionTouched, type AskDraft, type QuestionDraft } from './draft'

/**
 * The answer to one question from its draft:
 * - skipped → `{id, selected: []}`;
 * - picked labels in option order, each once even when two options share it (labels not offered any more follow, so the rules can name them);
 * - custom text trimmed; blank custom omitted;
 * - single-select with custom text → `selected: []` (the person's own words replace the pick);
 * - multi-select keeps labels and custom together.
 */
export function buildAnswer(question: Question, draft: QuestionDraft = EMPTY_QUESTION_DRAFT): Answer {
  if (draft.skipped) return { id: question.id, selected: [] }
  // Two options may carry one label (the tool accepts it): the label is the answer, so it counts once.
  const labels = [...new Set((question.options ?? []).map((option) => option.label))]
  const picked = new Set(draft.selected)
  let selected = labels.filter((label) => picked.has(label))
  const offered = new Set(labels)
  selected = [...selected, ...draft.selected.filter((label) => !offered.has(label))]
  const custom = draft.custom.trim()
  if (custom === '') return { id: question.id, selected }
  if (!isMultiSelect(question)) selected = []
  return { id: question.id, selected, custom }
}

/** One answer per question, in question order. */
export function buildAnswers(questions: readonly Question[], draft: AskDraft | undefined): Answer[] {
  return questions.map((question, index) => buildAnswer(question, draft?.[index]))
}

declare const checked: unique symbol

/**
 * Answers that passed `checkForm`: every question answered or skipped and no answer rule broken. Only
 * `checkForm` makes them, so a function taking `CheckedAnswers` needs no check of its own.
 */
export type CheckedAnswers = Answer[] & { readonly [checked]: true }

/** What the form says about an ask's current draft. */
export interface FormCheck {
  answers: Answer[]
  /** Rule violations from `checkAnswer`, by question index. */
  byQuestion: Map<number, AnswerViolation[]>
  /** Violations not about one question (e.g. the answer count). */
  general: AnswerViolation[]
  /** Indices of questions neither answered nor skipped. */
  unanswered: number[]
  /** `answers`, when the form may be sent (no rule broken, every question answered or skipped). */
  ready: CheckedAnswers | undefined
}

/** Builds the answers of a draft and checks them with the shared answer rules. */
export function checkForm(questions: readonly Question[], draft: AskDraft | undefined): FormCheck {
  const answers = buildAnswers(questions, draft)
  const byQuestion = new Map<number, AnswerViolation[]>()
  const general: AnswerViolation[] = []
  for (const violation of checkAnswer(questions, { answers })) {
    if (violation.index === undefined) general.push(violation)
    else byQuestion.set(violation.index, [...(byQuestion.get(violation.index) ?? []), violation])
  }
  const unanswered = questions.flatMap((_, index) => (questionTouched(draft?.[index]) ? [] : [index]))
  const passed = byQuestion.size === 0 && general.length === 0 && unanswered.length === 0
  // The one place answers become CheckedAnswers: they have just passed every check above.
  return { answers, byQuestion, general, unanswered, ready: passed ? (answers as CheckedAnswers) : undefined }
}
