// The one line `ask-user serve` prints on its terminal when an agent asks.
import { withoutHidden } from '../../shared/markdown/hidden-chars'

/** Longest agent name on the line, in code points (a longer one ends with "…"). */
const NAME_LIMIT = 64

/**
 * `HH:MM new ask from <agent> (<n> pending)`, local time. The agent's name is its own words, so it is
 * made safe for a terminal first ({@link terminalText}): a name cannot move the cursor, recolour the
 * screen, reorder the line or hide part of it.
 */
export function newAskLine(agentName: string, pending: number, at: Date): string {
  const time = `${two(at.getHours())}:${two(at.getMinutes())}`
  const name = terminalText(agentName)
  return `${time} new ask from ${name === '' ? '(no name)' : name} (${pending} pending)`
}

/**
 * Agent text fit for one terminal line: the Markdown filter's hidden characters (bidi controls and
 * marks, zero-width spaces, stray tags) removed, line breaks and tabs made spaces, every other control
 * or format character (escape sequences start with one) removed, and cut at {@link NAME_LIMIT}.
 */
export function terminalText(text: string): string {
  const plain = withoutHidden(text, 'short')
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
  const chars = Array.from(plain)
  return chars.length <= NAME_LIMIT ? plain : `${chars.slice(0, NAME_LIMIT - 1).join('')}…`
}

function two(n: number): string {
  return String(n).padStart(2, '0')
}
