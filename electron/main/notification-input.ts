import type { Answer, Ask } from '../../shared'
import type { Controls } from './notification-controls'

/** What the person did in a notification: pressed button `actionIndex`, or sent `reply`. */
export type NotificationInput = { kind: 'action'; actionIndex: number } | { kind: 'reply'; reply: string }

/** The answers an input stands for, or why it cannot answer (the ask then stays pending). */
export type InputAnswer =
  { ok: true; answers: Answer[] } | { ok: false; refusal: 'out-of-range' | 'empty-reply' | 'no-controls' }

/**
 * Turns a notification input into the ask's answers, exactly as the window would build them: a button
 * picks that option's label verbatim (`{id, selected: [label]}`); a reply is the custom answer,
 * trimmed like the window's (`{id, selected: [], custom}`). A button index outside the buttons
 * offered, an empty or whitespace-only reply, or an input the notification did not offer is refused.
 * The companion still checks the answer (answer rules) when it arrives, as for a window.
 */
export function answerFor(ask: Ask, controls: Controls, input: NotificationInput): InputAnswer {
  const question = ask.kind === 'question' ? ask.questions[0] : undefined
  if (!question) return { ok: false, refusal: 'no-controls' }
  if (input.kind === 'action') {
    if (controls.kind !== 'buttons') return { ok: false, refusal: 'no-controls' }
    const label = Number.isInteger(input.actionIndex) ? controls.labels[input.actionIndex] : undefined
    if (label === undefined) return { ok: false, refusal: 'out-of-range' }
    return { ok: true, answers: [{ id: question.id, selected: [label] }] }
  }
  if (controls.kind !== 'reply') return { ok: false, refusal: 'no-controls' }
  const custom = input.reply.trim()
  if (custom === '') return { ok: false, refusal: 'empty-reply' }
  return { ok: true, answers: [{ id: question.id, selected: [], custom }] }
}
