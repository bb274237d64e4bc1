// The check of a person's decision on an approval before it settles the ask (registry.ts `decide`): what
// the request offered, the `textChars` cap on a deny reason, and the canonical form the agent is sent.
import { decisionProblem, type ApprovalDecision, type ApprovalRequest } from '../shared/approval'
import type { Refusal } from './ask-settlement'

/**
 * Checks `decision` against `approval`: `INVALID_ANSWER` for an `always` the request did not offer or a
 * deny reason over `maxReasonChars`; else the canonical decision (no `always: false`, no empty reason).
 */
export function checkDecision(
  approval: ApprovalRequest,
  decision: ApprovalDecision,
  maxReasonChars: number,
): { ok: true; decision: ApprovalDecision } | Refusal {
  const problem = decisionProblem(approval, decision)
  if (problem !== undefined) return { ok: false, code: 'INVALID_ANSWER', message: problem }
  if (decision.behavior === 'deny' && decision.message !== undefined && decision.message.length > maxReasonChars) {
    return {
      ok: false,
      code: 'INVALID_ANSWER',
      message: `the reason has ${decision.message.length} characters; at most ${maxReasonChars} are allowed`,
    }
  }
  const canonical: ApprovalDecision =
    decision.behavior === 'allow'
      ? { behavior: 'allow', ...(decision.always === true ? { always: true as const } : {}) }
      : {
          behavior: 'deny',
          ...(decision.message !== undefined && decision.message !== '' ? { message: decision.message } : {}),
        }
  return { ok: true, decision: canonical }
}
