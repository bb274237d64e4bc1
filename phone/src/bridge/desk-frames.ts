// How the phone's desk events become the UI v2 frames the renderer's InboxStore reads (shared/ui.ts):
// the same meanings the desktop's core gives them (core/relay-bridge/remote-asks.ts), without a core.
// Pure: phone-bridge.ts does the wiring.
import type { Ask, AskOrigin } from '../../../shared/ask'
import { askQuestionFields, hasSecret } from '../../../shared/question-extras'
import type { UiServerFrame } from '../../../shared/ui'
import type { AnswerResult, RemoteAsk, RemoteAskSettled } from '../../../relay/exchange/relay-desk'

/**
 * Why the phone does not answer a secret ask: the person allows passwords per agent and per phone on
 * the desktop only (the record it seals to this phone, phone-passwords.ts), and has not for this agent.
 */
export function phoneSecretRefused(agent: string): string {
  return `"${agent}" asks for a password, and this phone may not answer its passwords. To allow it, turn on "Allow passwords from this agent" and "also on" this phone in the desktop's Relay view (or run \`ask-user relay passwords allow ${agent} --on <this phone>\` on the desktop); or answer it on the desktop.`
}

/**
 * The origin of a remote ask on the phone: unanswerable when it asks for a secret and
 * `passwordsAllowed` is not true (the desktop did not allow this agent's passwords on this phone).
 */
export function phoneOrigin(remote: RemoteAsk, unreachableSince?: number, passwordsAllowed = false): AskOrigin {
  const secret = hasSecret({ questions: remote.questions as readonly { secret?: unknown }[] })
  return {
    kind: 'relay',
    agentId: remote.agent.id,
    ...(secret && !passwordsAllowed ? { unanswerable: phoneSecretRefused(remote.agent.name) } : {}),
    ...(unreachableSince !== undefined ? { unreachableSince } : {}),
  }
}

/** Why the phone never sends "always allow": it would change the asking desktop's permission rules. */
export const PHONE_ALWAYS_REFUSED =
  '"Always allow" changes the permission rules of the machine that asks; decide it there. From the phone: allow once or deny.'

/** How a reply to `remote` settles it: a mirrored approval is `decided`, a question ask `answered`. */
export function replyOutcome(remote: Pick<RemoteAsk, 'approval'>): 'answered' | 'decided' {
  return remote.approval === undefined ? 'answered' : 'decided'
}

/**
 * A remote ask as windows see it. Its `askId` is the ask's relay key (`q.<agent>.<askId>`): unique
 * across agents, and what the desk answers by. A mirrored approval is an approval ask with the request
 * exactly as the desktop's windows have it (presence marks are for question asks: an approval carries
 * no `origin`).
 */
export function phoneAsk(
  remote: RemoteAsk,
  receivedAt: number,
  unreachableSince?: number,
  passwordsAllowed = false,
): Ask {
  if (remote.approval !== undefined)
    return {
      askId: remote.key,
      kind: 'approval',
      agent: { name: remote.agent.name },
      ...(remote.title !== undefined ? { title: remote.title } : {}),
      receivedAt,
      approval: remote.approval,
    }
  return {
    askId: remote.key,
    kind: 'question',
    agent: { name: remote.agent.name },
    ...(remote.title !== undefined ? { title: remote.title } : {}),
    receivedAt,
    questions: remote.questions.map(askQuestionFields),
    origin: phoneOrigin(remote, unreachableSince, passwordsAllowed),
  }
}

/**
 * The `ask/settled` frame for the agent's receipt or the ask's expiry. A delivery names the device
 * whose answer the agent took unless that device is this phone (`self`, its member id); it is
 * `decided` for a mirrored approval (`delivered`: {@link replyOutcome}).
 */
export function settledFrame(
  settled: RemoteAskSettled,
  self: string,
  delivered: 'answered' | 'decided' = 'answered',
): UiServerFrame {
  switch (settled.outcome) {
    case 'delivered':
      return {
        type: 'ask/settled',
        askId: settled.key,
        outcome: delivered,
        ...(settled.winner && settled.winner.id !== self ? { answeredOn: settled.winner.name } : {}),
      }
    case 'expired':
      return { type: 'ask/settled', askId: settled.key, outcome: 'expired' }
    // Withdrawn by its agent, or asked again under a new id (listed on its own).
    case 'withdrawn':
    case 'reasked':
      return { type: 'ask/settled', askId: settled.key, outcome: 'aborted' }
  }
}

/**
 * The frames for this phone's answer (or, `outcome` `decided`, its decision) as the relay took it:
 * accepted when it won (or the stored answer is its own), settled "answered on <device>" when another
 * device was first, refused when an answer that does not verify holds the key (the agent asks again
 * under a new id).
 */
export function answerFrames(
  askId: string,
  result: AnswerResult,
  self: string,
  outcome: 'answered' | 'decided' = 'answered',
): UiServerFrame[] {
  if (result.won || result.winner?.id === self) return [{ type: 'ask/accepted', askId, outcome }]
  if (result.winner) return [{ type: 'ask/settled', askId, outcome, answeredOn: result.winner.name }]
  return [
    {
      type: 'ask/rejected',
      askId,
      code: 'INVALID_ANSWER',
      reason: `an answer this phone cannot verify took this ask's place on the relay (${result.alarm}); nothing of yours was taken. The agent asks again: answer the new ask.`,
    },
  ]
}
