import { agentKey } from '../../shared'
import type { Ask } from '../../shared'
import { markedLabel, markedQuestion, truncate, BODY_LIMIT } from '../../shared/notification-text'
import type { Controls } from './notification-controls'
import type { Strings } from './strings'

// The text builders shared with the served page's browser notifications live in shared/.
export {
  askNotificationText,
  BODY_LIMIT,
  markedLabel,
  markedQuestion,
  noticeNotificationText,
  plainLabel,
  plainQuestion,
  TITLE_LIMIT,
  truncate,
} from '../../shared/notification-text'

/** Longest button label, in characters. */
export const BUTTON_LIMIT = 40

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
