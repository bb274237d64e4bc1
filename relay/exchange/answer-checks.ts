// What an asker takes from a verified answer body (remote-asker.ts): the answers to its questions,
// checked by the answer rules, or the decision on its approval, allow once or deny. Anything else is an
// AnswerRulesError: the answer key is spoiled and the asker asks again.
import { acceptAnswer as checkAgainstQuestions, type CheckedAnswer } from '../../shared/answer-rules'
import type { ApprovalDecision } from '../../shared/approval'
import type { Question } from '../../shared/tool-input'
import { RemoteAnswerBodySchema, type RemoteAnswerBody } from './schemas'

/** A verified answer body that breaks the rules of its ask: refused, and the ask asked again. */
export class AnswerRulesError extends Error {
  constructor(
    message: string,
    readonly code: 'ANSWER_RULES' | 'ALWAYS_NOT_REMOTE' = 'ANSWER_RULES',
  ) {
    super(message)
  }
}

/** The answer body as its schema reads it (an `AnswerRulesError` when it is none). */
function answerBody(body: Uint8Array): RemoteAnswerBody {
  let data: unknown
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    data = undefined
  }
  const parsed = RemoteAnswerBodySchema.safeParse(data)
  if (!parsed.success) throw new AnswerRulesError('the answer body is not an answer; asking again')
  return parsed.data
}

/**
 * The decision of an answer body to an approval: allow once or deny. "Always allow" is refused
 * (`ALWAYS_NOT_REMOTE`): it would change this machine's permission rules from another device.
 */
export function checkedDecision(body: Uint8Array, maxCustomChars = Number.POSITIVE_INFINITY): ApprovalDecision {
  const parsed = answerBody(body)
  if (!('decision' in parsed)) throw new AnswerRulesError('the answer to an approval carries no decision; asking again')
  const decision = parsed.decision
  if (decision.behavior === 'allow' && decision.always === true)
    throw new AnswerRulesError(
      'an "always allow" came through the relay; only allow once or deny are taken from another device, so nothing was decided and the approval is asked again',
      'ALWAYS_NOT_REMOTE',
    )
  if (decision.behavior === 'deny' && (decision.message?.length ?? 0) > maxCustomChars)
    throw new AnswerRulesError('the reason given with a deny is longer than the asker takes; asking again')
  return decision
}

/** The answer body, parsed and checked against the asked questions (an `AnswerRulesError` otherwise). */
export function checkedAnswer(
  body: Uint8Array,
  questions: readonly Question[],
  maxCustomChars = Number.POSITIVE_INFINITY,
): CheckedAnswer {
  const parsed = answerBody(body)
  if (!('answers' in parsed)) throw new AnswerRulesError('the answer to questions carries a decision; asking again')
  const check = checkAgainstQuestions(questions, { answers: parsed.answers }, maxCustomChars)
  if (!check.ok)
    throw new AnswerRulesError(
      `the answer breaks the answer rules (${check.violations.map((v) => v.code).join(', ')}); asking again`,
    )
  return check.answer
}
