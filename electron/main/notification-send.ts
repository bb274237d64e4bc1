import type { Answer, RejectionCode } from '../../shared'
import type { Refusal } from '../../shared/error-codes'
import type { DesktopCompanion } from './companion'

/** How the companion took an answer sent from a notification. */
export type SendResult = { ok: true } | Refusal<RejectionCode>

/**
 * Sends `answers` for `askId` the way a window does: an `ask/answer` frame on a UI-channel session
 * (attached for this one frame, then closed, so it never counts as an open window). The companion
 * checks it like any window's answer (the ask must be pending; the answer rules), settles the ask,
 * sends the canonical answer to the agent and broadcasts `ask/settled` to every window. Its
 * reply (`ask/accepted` / `ask/rejected`) is synchronous; no reply reads as `NOT_PENDING`.
 */
export function sendAnswer(
  companion: Pick<DesktopCompanion, 'attachWindow'>,
  askId: string,
  answers: Answer[],
): SendResult {
  let result: SendResult = { ok: false, code: 'NOT_PENDING', message: 'the companion did not reply' }
  const session = companion.attachWindow((frame) => {
    if (frame.type === 'ask/accepted' && frame.askId === askId) result = { ok: true }
    else if (frame.type === 'ask/rejected' && frame.askId === askId)
      result = { ok: false, code: frame.code, message: frame.reason }
  })
  try {
    session.receive({ type: 'ask/answer', askId, answers })
  } finally {
    session.close()
  }
  return result
}
