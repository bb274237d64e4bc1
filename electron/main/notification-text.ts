import { agentKey } from '../../shared'
import type { Ask } from '../../shared'
import { withoutHidden } from '../../shared/markdown/hidden-chars'
import { inlinePlainText } from '../../shared/markdown/parse'
import type { Strings } from './strings'

/** Longest notification body, in characters (longer text ends with an ellipsis). */
export const BODY_LIMIT = 120

/** Cuts `text` to `limit` characters (code points), ending with "…" when cut; collapses whitespace. */
export function truncate(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length <= limit ? flat : chars.slice(0, limit - 1).join('').trimEnd() + '…'
}

/** Literal agent text (a name, a header) as notifications show it: hidden characters removed. */
export function plainLabel(text: string): string {
  return withoutHidden(text, 'short')
}

/** A question's text as notifications show it: the plain text of its inline Markdown, hidden characters removed. */
export function plainQuestion(text: string): string {
  return withoutHidden(inlinePlainText(text), 'long')
}

/**
 * Title and body of the notification for one ask: the agent's name; header and first question (the
 * plain text of its Markdown, hidden characters removed).
 */
export function askNotificationText(ask: Ask): { title: string; body: string } {
  const first = ask.questions[0]
  const question = first ? plainQuestion(first.question) : ''
  const text = first ? (first.header ? `${plainLabel(first.header)}: ${question}` : question) : plainLabel(ask.title ?? '')
  return { title: truncate(plainLabel(ask.agent.name), 64), body: truncate(text, BODY_LIMIT) }
}

/** Title and body of one notification for a burst of asks: "3 questions from 2 agents". */
export function burstNotificationText(asks: readonly Ask[], strings: Strings): { title: string; body: string } {
  const questions = asks.reduce((sum, ask) => sum + Math.max(1, ask.questions.length), 0)
  const agents = new Set(asks.map((ask) => agentKey(ask.agent))).size
  return { title: strings.appName, body: strings.burst(questions, agents) }
}
