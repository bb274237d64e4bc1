import { agentKey, approvalLine } from '../../shared'
import type { Ask, InboxNotice } from '../../shared'
import { withMarkers, withoutHidden } from '../../shared/markdown/hidden-chars'
import { inlinePlainText } from '../../shared/markdown/parse'
import type { Controls } from './notification-controls'
import type { Strings } from './strings'

/** Longest notification body, in characters (longer text ends with an ellipsis). */
export const BODY_LIMIT = 120
/** Longest notification title, in characters. */
export const TITLE_LIMIT = 64
/** Longest button label, in characters. */
export const BUTTON_LIMIT = 40

const words = new Intl.Segmenter(undefined, { granularity: 'word' })

/**
 * Cuts `text` to at most `limit` characters (code points), collapsing whitespace; a cut text ends with
 * "…". The cut falls at the last word boundary that keeps at least half the text (spaces first, then
 * the word boundaries of scripts without spaces, such as Chinese), never inside a hidden-character
 * marker (`⟨U+202E⟩`); a single word longer than that is cut where it must be.
 */
export function truncate(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  if (chars.length <= limit) return flat
  const room = limit - 1 // the ellipsis takes one
  const head = chars.slice(0, room).join('')
  const cut = lastBoundary(flat, head, Math.ceil(room / 2))
  return (cut ?? head).trimEnd() + '…'
}

/** The longest prefix of `head` that ends at a word boundary of `full`, keeps `min` characters and no half marker. */
function lastBoundary(full: string, head: string, min: number): string | undefined {
  let best: string | undefined
  for (const segment of words.segment(full)) {
    if (segment.index > head.length) break
    const prefix = full.slice(0, segment.index)
    if (Array.from(prefix).length >= min && !endsInsideMarker(prefix)) best = prefix
  }
  return best
}

/** True when `text` ends inside a marker: its last `⟨` has no `⟩` after it (two scans, no regex to backtrack). */
function endsInsideMarker(text: string): boolean {
  return text.lastIndexOf('⟨') > text.lastIndexOf('⟩')
}

/** Literal agent text (a name, a header) as the tray shows it: hidden characters removed. */
export function plainLabel(text: string): string {
  return withoutHidden(text, 'short')
}

/** A question's text as the tray shows it: the plain text of its inline Markdown, hidden characters removed. */
export function plainQuestion(text: string): string {
  return withoutHidden(inlinePlainText(text), 'long')
}

/** Literal agent text (a name, a header, an option label) as notifications show it: hidden characters as markers. */
export function markedLabel(text: string): string {
  return withMarkers(text, 'short')
}

/** A question's text as notifications show it: the plain text of its inline Markdown, hidden characters as markers. */
export function markedQuestion(text: string): string {
  return withMarkers(inlinePlainText(text), 'long')
}

/**
 * Title and body of the notification for one ask: the agent's name; header and first question (the
 * plain text of its Markdown), hidden characters shown as markers (`⟨U+202E⟩`), so a label that
 * reorders or hides text cannot pass for another in a button.
 */
export function askNotificationText(ask: Ask): { title: string; body: string } {
  if (ask.kind === 'approval')
    return {
      title: truncate(markedLabel(ask.agent.name), TITLE_LIMIT),
      body: truncate(markedLabel(approvalLine(ask.agent.name, ask.approval)), BODY_LIMIT),
    }
  const first = ask.questions[0]
  const question = first ? markedQuestion(first.question) : ''
  const text = first
    ? first.header
      ? `${markedLabel(first.header)}: ${question}`
      : question
    : markedLabel(ask.title ?? '')
  return { title: truncate(markedLabel(ask.agent.name), TITLE_LIMIT), body: truncate(text, BODY_LIMIT) }
}

/** Title and body of a notice's notification: the agent, and what it says (plain text, markers shown). */
export function noticeNotificationText(notice: InboxNotice): { title: string; body: string } {
  return {
    title: truncate(markedLabel(notice.agent.name), TITLE_LIMIT),
    body: truncate(markedQuestion(notice.notice.text), BODY_LIMIT),
  }
}

/** The button labels or the reply placeholder of a notification's controls, as plain text. */
export function controlsText(controls: Controls): { buttons: string[]; placeholder?: string } {
  if (controls.kind === 'buttons')
    return { buttons: controls.labels.map((label) => truncate(markedLabel(label), BUTTON_LIMIT)) }
  if (controls.kind === 'reply')
    return { buttons: [], placeholder: truncate(markedQuestion(controls.question), BODY_LIMIT) }
  return { buttons: [] }
}

/** Title and body of one notification for a burst of asks: "3 questions from 2 agents". */
export function burstNotificationText(asks: readonly Ask[], strings: Strings): { title: string; body: string } {
  const questions = asks.reduce(
    (sum, ask) => sum + (ask.kind === 'question' ? Math.max(1, ask.questions.length) : 1),
    0,
  )
  const agents = new Set(asks.map((ask) => agentKey(ask.agent))).size
  return { title: strings.appName, body: strings.burst(questions, agents) }
}
