import { knownOptionFields, type Question } from '../shared/tool-input'
import type { AskAnswer } from '../shared/answer'
import type { UserInteractionAnswer, UserInteractionRequest, UserQuestion } from './user-interaction'

/**
 * Tool input question → seam question: snake `multi_select` becomes camel `multiSelect`; `header`,
 * `options` and `multiSelect` are copied only when present; unknown extra keys are dropped, `detail`
 * and `intent` included (the model cannot set them).
 */
export function toUserQuestion(question: Question): UserQuestion {
  const out: UserQuestion = { id: question.id, question: question.question }
  if (question.header !== undefined) out.header = question.header
  // options as they came: their extra keys reach the provider, as upstream
  if (question.options !== undefined) out.options = question.options
  if (question.multi_select !== undefined) out.multiSelect = question.multi_select
  return out
}

/**
 * Seam question → protocol question (for the wire): camel `multiSelect` back to snake `multi_select`;
 * the seam's `detail` and `intent` are forwarded as they are (the companion's checks apply to them).
 */
export function toToolQuestion(question: UserQuestion): Question {
  const out: Question = { id: question.id, question: question.question }
  if (question.detail !== undefined) out['detail'] = question.detail
  if (question.intent !== undefined) out['intent'] = { ...question.intent }
  if (question.header !== undefined) out.header = question.header
  if (question.options !== undefined) out.options = question.options.map(knownOptionFields)
  if (question.multiSelect !== undefined) out.multi_select = question.multiSelect
  return out
}

/** A checked answer as the seam returns it: `custom` only where the person wrote one, never `undefined`. */
export function toSeamAnswer(answer: AskAnswer): UserInteractionAnswer {
  return {
    answers: answer.answers.map(({ id, selected, custom }) => ({
      id,
      selected: [...selected],
      ...(custom !== undefined ? { custom } : {}),
    })),
  }
}

/** The asking agent's `title`, when the host's agent handle has a string one. */
export function agentTitle(agent: UserInteractionRequest['agent']): string | undefined {
  return agent !== undefined && 'title' in agent && typeof agent.title === 'string' ? agent.title : undefined
}
