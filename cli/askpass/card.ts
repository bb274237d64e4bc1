import type { AskQuestion } from '../../shared/question-extras'
import { fingerprintOf, type PromptKind } from './prompt-kind'

/** The option labels of the cards that offer a choice. */
export const LABELS = { yes: 'Yes', no: 'No', allow: 'Allow', deny: 'Deny', ok: 'OK' } as const

/** What the card is built from. */
export interface CardInput {
  kind: PromptKind
  /** askpass's argv[1], as the program printed it. */
  prompt: string
  /** The receiving program is one of sudo, ssh, ssh-agent, git, git-remote-http(s). */
  knownReceiver: boolean
  /** The receiver's command line, redacted (shown as the ask's title). */
  receiver: string
  /** The same program asked the same thing less than a minute ago: the last answer was refused. */
  repeat: boolean
}

/**
 * The one question of an askpass card. A password is a `secret` free-text question; a username plain
 * free text; ssh's host-key question Yes/No with the fingerprint; a confirmation Allow/Deny; a
 * security-key reminder a single OK. The detail says who receives the answer, warns when that is not
 * a known askpass caller, and says when this is a repeat.
 */
export function askpassQuestion(input: CardInput): AskQuestion {
  const notes: string[] = []
  if (input.repeat) notes.push(`**Asked again by the same program:** the previous answer was not accepted (a wrong password?).`)
  if (!input.knownReceiver) {
    notes.push(`**Warning:** the answer will be printed to \`${input.receiver || 'an unknown program'}\`, which is not sudo, ssh or git.`)
  } else {
    notes.push(`The answer goes only to \`${input.receiver}\`.`)
  }
  const base = { id: 'askpass', question: input.prompt.trim() || 'Password:' }
  switch (input.kind) {
    case 'secret':
      return { ...base, header: 'Password', secret: true, detail: notes.join('\n\n') }
    case 'username':
      return { ...base, header: 'Username', detail: notes.join('\n\n') }
    case 'host-key': {
      const fingerprint = fingerprintOf(input.prompt)
      const detail = [...(fingerprint ? [`Host key fingerprint: \`${fingerprint}\``] : []), ...notes].join('\n\n')
      return { ...base, header: 'Host key', detail, options: [{ label: LABELS.yes, description: 'Trust this host key and connect' }, { label: LABELS.no }] }
    }
    case 'confirm':
      return { ...base, header: 'Confirm', detail: notes.join('\n\n'), options: [{ label: LABELS.allow }, { label: LABELS.deny }] }
    case 'notice':
      return { ...base, header: 'Security key', options: [{ label: LABELS.ok }] }
  }
}

/** What the helper does with an answer: print `stdout` and exit 0, or exit 1 (refused, skipped). */
export type Outcome = { print: string } | { exit: 0 | 1 }

/** Maps the person's answer (its one entry) to what sudo, ssh or git get. */
export function outcomeOf(kind: PromptKind, answer: { selected: string[]; custom?: string }): Outcome {
  switch (kind) {
    case 'secret':
    case 'username':
      return answer.custom !== undefined ? { print: answer.custom } : { exit: 1 }
    case 'host-key':
      return answer.selected[0] === LABELS.yes ? { print: 'yes' } : { exit: 1 }
    case 'confirm':
      return { exit: answer.selected[0] === LABELS.allow ? 0 : 1 }
    case 'notice':
      return { exit: 0 }
  }
}
