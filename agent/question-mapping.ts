import { knownOptionFields, knownQuestionFields, type Question } from '../shared/tool-input'
import type { UserQuestion } from './user-interaction'

/**
 * Tool input question → seam question: snake `multi_select` becomes camel `multiSelect`; `header`,
 * `options` and `multiSelect` are copied only when present; unknown extra keys are dropped.
 */
export function toUserQuestion(question: Question): UserQuestion {
  const { multi_select: multiSelect, ...known } = knownQuestionFields(question)
  const out: UserQuestion = { id: known.id, question: known.question }
  if (known.header !== undefined) out.header = known.header
  if (known.options !== undefined) out.options = known.options
  if (multiSelect !== undefined) out.multiSelect = multiSelect
  return out
}

/** Seam question → tool input question (for the wire): camel `multiSelect` back to snake `multi_select`. */
export function toToolQuestion(question: UserQuestion): Question {
  const out: Question = { id: question.id, question: question.question }
  if (question.header !== undefined) out.header = question.header
  if (question.options !== undefined) out.options = question.options.map(knownOptionFields)
  if (question.multiSelect !== undefined) out.multi_select = question.multiSelect
  return out
}
