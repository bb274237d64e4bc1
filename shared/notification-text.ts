// The plain text of a notification about an ask or a notice, whoever shows it: the desktop's native
// notifications and tray (electron/main/) and the served page's browser notifications (renderer/).
import { approvalLine } from './approval'
import type { Ask, InboxNotice } from './ask'
import { withMarkers, withoutHidden } from './markdown/hidden-chars'
import { inlinePlainText } from './markdown/parse'

/** Longest notification body, in characters (longer text ends with an ellipsis). */
export const BODY_LIMIT = 120
/** Longest notification title, in characters. */
export const TITLE_LIMIT = 64
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
