import type { z } from 'zod'
import type { AskAnswer } from './answer'
import { isMultiSelect, type Question } from './tool-input'

export type AnswerViolationCode =
  | 'ANSWER_COUNT'
  | 'ID_MISMATCH'
  | 'UNKNOWN_LABEL'
  | 'DUPLICATE_LABEL'
  | 'TOO_MANY_LABELS'
  | 'CUSTOM_WITH_LABEL'
  | 'BLANK_CUSTOM'
  | 'CUSTOM_TOO_LONG'
  | 'SECRET_UNANSWERED'

/** One broken answer rule; `index` is the question's position when the rule is about one question. */
export interface AnswerViolation {
  code: AnswerViolationCode
  index?: number
  message: string
}

/** How a violation names the answer it is about (made only when there is one). */
function at(index: number, question: Question): string {
  return `answer ${index + 1} ("${question.id}")`
}

/**
 * Checks an answer against the questions it answers and returns every violation (empty = valid):
 * one answer per question, same order and ids; every label offered, verbatim, at most once;
 * single-select: at most one label, and a custom answer means no label; `custom` never blank.
 * A skipped question is `{id, selected: []}`; multi-select may carry labels and custom together.
 * A `secret` question (protocol v1) must be answered with `custom`: it cannot be skipped.
 */
export function checkAnswer(
  questions: readonly Question[],
  answer: AskAnswer,
  /** Longest custom answer accepted, in characters (the companion passes its `textChars` cap). */
  maxCustomChars = Number.POSITIVE_INFINITY,
): AnswerViolation[] {
  const violations: AnswerViolation[] = []
  if (answer.answers.length !== questions.length) {
    violations.push({
      code: 'ANSWER_COUNT',
      message: `expected ${questions.length} answer(s), one per question, got ${answer.answers.length}`,
    })
  }
  const count = Math.min(questions.length, answer.answers.length)
  for (let index = 0; index < count; index++) {
    const question = questions[index]!
    const given = answer.answers[index]!
    if (given.id !== question.id) {
      violations.push({
        code: 'ID_MISMATCH',
        index,
        message: `${at(index, question)}: id is "${given.id}", expected "${question.id}"`,
      })
    }
    // Linear scans, not sets: at most 50 options, and an answer selects one or a few of them.
    const options = question.options ?? []
    for (let position = 0; position < given.selected.length; position++) {
      const label = given.selected[position]!
      if (!options.some((option) => option.label === label)) {
        violations.push({
          code: 'UNKNOWN_LABEL',
          index,
          message: `${at(index, question)}: "${label}" is not one of the options`,
        })
      }
      if (given.selected.indexOf(label) !== position) {
        violations.push({
          code: 'DUPLICATE_LABEL',
          index,
          message: `${at(index, question)}: "${label}" is selected twice`,
        })
      }
    }
    if (!isMultiSelect(question)) {
      if (given.selected.length > 1) {
        violations.push({
          code: 'TOO_MANY_LABELS',
          index,
          message: `${at(index, question)}: single-select question, but ${given.selected.length} options are selected`,
        })
      }
      if (given.custom !== undefined && given.selected.length > 0) {
        violations.push({
          code: 'CUSTOM_WITH_LABEL',
          index,
          message: `${at(index, question)}: single-select question answered in the person's own words must select no option`,
        })
      }
    }
    if (given.custom !== undefined && given.custom.trim() === '') {
      violations.push({ code: 'BLANK_CUSTOM', index, message: `${at(index, question)}: the custom answer is blank` })
    }
    if (question['secret'] === true && given.custom === undefined) {
      // an empty password sent to sudo or ssh is never what the person meant: dismiss instead
      violations.push({
        code: 'SECRET_UNANSWERED',
        index,
        message: `${at(index, question)}: a secret question cannot be skipped; type the answer or dismiss the ask`,
      })
    }
    if (given.custom !== undefined && given.custom.length > maxCustomChars) {
      violations.push({
        code: 'CUSTOM_TOO_LONG',
        index,
        message: `${at(index, question)}: the custom answer has ${given.custom.length} characters; at most ${maxCustomChars} are allowed`,
      })
    }
  }
  return violations
}

/**
 * An answer that passed {@link checkAnswer} against the questions it answers, made only by
 * {@link acceptAnswer}: code that takes a `CheckedAnswer` (rendering the tool result) has nothing
 * left to check.
 */
export type CheckedAnswer = AskAnswer & z.$brand<'CheckedAnswer'>

/** The outcome of {@link acceptAnswer}: the checked answer, or every rule it breaks. */
export type AnswerCheck = { ok: true; answer: CheckedAnswer } | { ok: false; violations: AnswerViolation[] }

/** {@link checkAnswer}, and the answer as a {@link CheckedAnswer} when nothing is broken. */
export function acceptAnswer(
  questions: readonly Question[],
  answer: AskAnswer,
  maxCustomChars = Number.POSITIVE_INFINITY,
): AnswerCheck {
  const violations = checkAnswer(questions, answer, maxCustomChars)
  return keepsTheRules(answer, violations) ? { ok: true, answer } : { ok: false, violations }
}

function keepsTheRules(_answer: AskAnswer, violations: readonly AnswerViolation[]): _answer is CheckedAnswer {
  return violations.length === 0
}
