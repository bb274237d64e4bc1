import { knownOptionFields, knownQuestionFields, type Question } from '../shared/tool-input'
import type { AskAnswer } from '../shared/answer'
import type { UserInteractionAnswer, UserInteractionRequest, UserQuestion } from './user-interaction'

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

/** A checked answer as the seam returns it: `custom` only where the person wrote one, never `undefined`. */
export function toSeamAnswer(answer: AskAnswer): UserInteractionAnswer {
  return {
    answers: answer.answers.map(({ id, selected, custom }) => ({ id, selected: [...selected], ...(custom !== undefined ? { custom } : {}) })),
  }
}

/** The asking agent's `title`, when the host's agent handle has a string one. */
export function agentTitle(agent: UserInteractionRequest['agent']): string | undefined {
  return agent !== undefined && 'title' in agent && typeof agent.title === 'string' ? agent.title : undefined
}
