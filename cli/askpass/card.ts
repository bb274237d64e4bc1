import type { AskQuestion } from '../../shared/question-extras'
import { KNOWN_RECEIVERS, type Receiver } from '../../core/askpass-receiver'
import { fingerprintOf, type PromptKind } from './prompt-kind'

/** The option labels of the cards that offer a choice. */
export const LABELS = { yes: 'Yes', no: 'No', allow: 'Allow', deny: 'Deny', ok: 'OK' } as const

/** What the card is built from. */
export interface CardInput {
  kind: PromptKind
  /** askpass's argv[1], as the program printed it. */
  prompt: string
  /** The receiving program as the kernel names it (core/askpass-receiver.ts). */
  receiver: Receiver
  /** The receiver's command line, redacted (shown as the ask's title). */
  commandLine: string
  /** Where the helper runs: on macOS nothing ties a name to an executable, so a known name is "not verified". */
  platform: NodeJS.Platform
  /** The same program asked the same thing less than a minute ago: the last answer was refused. */
  repeat: boolean
}

/**
 * The one question of an askpass card. A password is a `secret` free-text question; a username plain
 * free text; ssh's host-key question Yes/No with the fingerprint; a confirmation Allow/Deny; a
 * security-key reminder a single OK. The detail warns when the receiver is not proven to be sudo, ssh
 * or git, and says when this is a repeat.
 *
 * The card never says "the answer goes only to …": that line is drawn by the window from the mark the
 * companion sets itself (shared/ask.ts `askpass`), since any agent can write this detail's text.
 */
export function askpassQuestion(input: CardInput): AskQuestion {
  const notes: string[] = []
  if (input.repeat)
    notes.push(`**Asked again by the same program:** the previous answer was not accepted (a wrong password?).`)
  const note = receiverNote(input)
  if (note) notes.push(note)
  const base = { id: 'askpass', question: input.prompt.trim() || 'Password:' }
  const detailOf = (lines: string[]): { detail?: string } => (lines.length > 0 ? { detail: lines.join('\n\n') } : {})
  switch (input.kind) {
    case 'secret':
      return { ...base, header: 'Password', secret: true, ...detailOf(notes) }
    case 'username':
      return { ...base, header: 'Username', ...detailOf(notes) }
    case 'host-key': {
      const fingerprint = fingerprintOf(input.prompt)
      const detail = detailOf([...(fingerprint ? [`Host key fingerprint: \`${fingerprint}\``] : []), ...notes])
      return {
        ...base,
        header: 'Host key',
        ...detail,
        options: [{ label: LABELS.yes, description: 'Trust this host key and connect' }, { label: LABELS.no }],
      }
    }
    case 'confirm':
      return {
        ...base,
        header: 'Confirm',
        ...detailOf(notes),
        options: [{ label: LABELS.allow }, { label: LABELS.deny }],
      }
    case 'notice':
      return { ...base, header: 'Security key', options: [{ label: LABELS.ok }] }
  }
}

/** The helper's own line about the receiver: nothing when the kernel proved it, else a "not verified" note or a warning. */
function receiverNote(input: CardInput): string | undefined {
  const { program, verified } = input.receiver
  if (verified) return undefined
  const commandLine = input.commandLine ? ` (\`${input.commandLine}\`)` : ''
  if (input.platform === 'darwin' && KNOWN_RECEIVERS.has(program)) {
    return `The answer will be printed to \`${program}\`${commandLine}, as \`ps\` names it: not verified.`
  }
  return `**Warning:** the answer will be printed to \`${program}\`${commandLine}, which is not verified to be sudo, ssh or git.`
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
