// How a remote ask from the relay's desk becomes an ask of the companion's one registry, and how the
// relay's outcomes become the registry's settlements. Pure: the bridge (bridge.ts) does the wiring.
import type { AskOrigin } from '../../shared/ask'
import { limitExceededMessage, overCap } from '../../shared/issue-wording'
import type { Limits } from '../../shared/limits'
import { askQuestionFields, hasSecret } from '../../shared/question-extras'
import type { ApprovalDecision, ApprovalRequest } from '../../shared/approval'
import { validateApproval } from '../../shared/validate-approval'
import { validateAskInput, type InputRefusal } from '../../shared/validate-input'
import type { Answer } from '../../shared/answer'
import type { AnswerResult, RemoteAsk, RemoteAskSettled } from '../../relay/exchange'
import type { NewAsk, Refusal, Settlement } from '../registry'

/**
 * Why no window of this desk answers a remote secret ask of `agent` (remote passwords are not allowed for
 * it here): shown in place of the form, and the refusal's message. It names the command that allows them.
 */
export function remoteSecretRefused(agent: string): string {
  return `Remote passwords are not allowed for "${agent}" on this desk. To answer it here, run: ask-user relay passwords allow ${agent}`
}

/** A remote ask as the registry takes it, without its owner (the bridge adds that). */
export type RemoteNewAsk = RemoteQuestionAsk | RemoteApprovalAsk
type RemoteQuestionAsk = Omit<Extract<NewAsk, { kind: 'question' }>, 'owner'>
type RemoteApprovalAsk = Omit<Extract<NewAsk, { kind: 'approval' }>, 'owner'>

/**
 * The registry's new ask for a remote ask, checked as a local agent's ask is (`validateAskInput` and
 * the title's cap, with this companion's `limits`): the roster's agent name (never one the agent
 * declared), the questions with the fields windows know, and `origin` marking it remote. A secret
 * question makes the whole ask unanswerable here ({@link remoteSecretRefused}) unless `passwordsAllowed`
 * (the person allowed remote passwords for this agent on this desk). Another desktop's mirrored approval
 * becomes an approval ask ({@link remoteApprovalAsk}).
 */
export function remoteNewAsk(remote: RemoteAsk, limits: Limits, passwordsAllowed = false): RemoteNewAsk | InputRefusal {
  if (remote.approval !== undefined) return remoteApprovalAsk(remote, remote.approval, limits)
  const input = validateAskInput({ questions: remote.questions }, limits)
  if (!input.ok) return input
  if (remote.title !== undefined && remote.title.length > limits.textChars)
    return {
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: limitExceededMessage([overCap('title', remote.title.length, limits.textChars)]),
    }
  const questions = input.value.questions.map(askQuestionFields)
  const origin = remoteOrigin(remote.agent, hasSecret({ questions }), passwordsAllowed)
  return {
    kind: 'question',
    agent: { name: remote.agent.name },
    ...(remote.title !== undefined ? { title: remote.title } : {}),
    questions,
    origin,
    wireId: remote.key,
  }
}

/**
 * Another desktop's mirrored approval as the registry takes it: the request checked as a local agent's is
 * (`validateApproval` with this companion's `limits`), without its "always allow" offer (that would change
 * the permission rules of the machine that mirrors it: only its own windows offer it, and the relay
 * refuses it), named as the relay names it (`agent (on desktop)`), `origin` marking it remote.
 */
function remoteApprovalAsk(remote: RemoteAsk, approval: ApprovalRequest, limits: Limits): RemoteNewAsk | InputRefusal {
  const checked = validateApproval(approval, limits)
  if (!checked.ok) return checked
  const { always: _always, ...request } = checked.value
  return {
    kind: 'approval',
    agent: { name: remote.agent.name },
    ...(remote.title !== undefined && remote.title.length <= limits.textChars ? { title: remote.title } : {}),
    approval: request,
    origin: { kind: 'relay', agentId: remote.agent.id },
    wireId: remote.key,
  }
}

/** The `origin` of a remote ask: unanswerable here when it asks for a secret its agent may not get from this desk. */
export function remoteOrigin(
  agent: { readonly name: string; readonly id: string },
  secret: boolean,
  passwordsAllowed: boolean,
): AskOrigin {
  return {
    kind: 'relay',
    agentId: agent.id,
    ...(secret && !passwordsAllowed ? { unanswerable: remoteSecretRefused(agent.name) } : {}),
  }
}

/**
 * The settlement the relay's receipt or expiry stands for, for a question ask or an `approval`. A
 * delivery names the device whose answer (or decision) the agent took (this desk's own name when its
 * write landed after its wait had ended); what it was is sealed to the agent, unknown here.
 */
export function relaySettlement(settled: RemoteAskSettled, kind: 'question' | 'approval' = 'question'): Settlement {
  switch (settled.outcome) {
    case 'delivered': {
      const answeredOn = settled.winner ? { answeredOn: settled.winner.name } : {}
      return kind === 'approval'
        ? { outcome: 'decided', ...answeredOn }
        : { outcome: 'answered', answers: [], ...answeredOn }
    }
    case 'expired':
      return { outcome: 'expired' }
    // The agent withdrew it, or asked it again under a new id (that one is listed on its own).
    case 'withdrawn':
    case 'reasked':
      return { outcome: 'aborted', by: 'agent' }
  }
}

/** What this desk sent for a remote ask: answers to its questions, or a decision on an approval. */
export type RemoteReply = { answers: Answer[] } | { decision: ApprovalDecision }

/**
 * The settlement (or refusal) for this desk's reply as the relay took it: won, lost to another device
 * (named), or an unverifiable answer holding the key (an alarm: the ask stays until the agent asks again).
 * `self` is this desk's member id: a stored answer of its own (a write that landed after its wait
 * ended) counts as won.
 */
export function answerSettlement(result: AnswerResult, reply: RemoteReply, self: string): Settlement | Refusal {
  const won = result.won || result.winner?.id === self
  if ('decision' in reply) {
    if (won) return { outcome: 'decided', decision: reply.decision }
    if (result.winner) return { outcome: 'decided', answeredOn: result.winner.name }
  } else {
    if (won) return { outcome: 'answered', answers: reply.answers }
    if (result.winner) return { outcome: 'answered', answers: [], answeredOn: result.winner.name }
  }
  return {
    ok: false,
    code: 'INVALID_ANSWER',
    message: `an answer this desk cannot verify took this ask's place on the relay (${result.alarm}); nothing of yours was taken. The agent asks again: answer the new ask.`,
  }
}
