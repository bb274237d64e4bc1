import {
  UiDecideFrameSchema,
  UiDismissFrameSchema,
  UiHistoryRequestFrameSchema,
  UiNoticeDismissFrameSchema,
  type RejectedFrame,
  type RejectionCode,
  type UiClientFrame,
} from '../shared/ui'
import { checkObjectFrame } from './frames'
import { checkAnswerFrame } from './answer-frame'
import { invalidFrameMessage } from '../shared/issue-wording'
import { ANSWERER_CHANGES } from '../shared/ui'

/** A window's frame after its one check: the typed frame, or the `rejected` reply it gets instead. */
export type WindowFrameCheck = { ok: true; frame: UiClientFrame } | { ok: false; rejected: RejectedFrame }

/**
 * The one check of a frame from a window, whatever carried it (the UI socket decodes JSON first; IPC
 * hands over the structured clone): a JSON object with a string `type`, a known type, and that type's
 * schema. A refusal is `rejected INVALID_FRAME`, with the frame's `askId` when it had a string one.
 */
export function parseWindowFrame(value: unknown): WindowFrameCheck {
  const checked = checkObjectFrame(value)
  if (!checked.ok) return refuse('', checked.message)
  const raw = checked.value
  const askId = typeof raw['askId'] === 'string' ? raw['askId'] : ''
  switch (raw['type']) {
    case 'answer': {
      const frame = checkAnswerFrame(raw)
      return frame.success ? { ok: true, frame: frame.data } : refuse(askId, invalidFrameMessage('answer frame', raw, frame.error.issues))
    }
    case 'decide': {
      const frame = UiDecideFrameSchema.safeParse(raw)
      return frame.success ? { ok: true, frame: frame.data } : refuse(askId, invalidFrameMessage('decide frame', raw, frame.error.issues))
    }
    case 'dismiss': {
      const frame = UiDismissFrameSchema.safeParse(raw)
      return frame.success ? { ok: true, frame: frame.data } : refuse(askId, invalidFrameMessage('dismiss frame', raw, frame.error.issues))
    }
    case 'notice/dismiss': {
      const noticeId = typeof raw['noticeId'] === 'string' ? raw['noticeId'] : ''
      const frame = UiNoticeDismissFrameSchema.safeParse(raw)
      return frame.success ? { ok: true, frame: frame.data } : refuse(noticeId, invalidFrameMessage('notice/dismiss frame', raw, frame.error.issues))
    }
    case 'history/get': {
      const frame = UiHistoryRequestFrameSchema.safeParse(raw)
      return frame.success ? { ok: true, frame: frame.data } : refuse('', invalidFrameMessage('history/get frame', raw, frame.error.issues))
    }
    default:
      if (typeof raw['type'] === 'string' && ANSWERER_CHANGES.has(raw['type'])) {
        return {
          ok: false,
          rejected: rejected(askId, 'FORBIDDEN',
            `${raw['type']} changes who may answer: it is accepted only from the desktop app's own window or from \`ask-user\` in a terminal, never over the UI channel`),
        }
      }
      return refuse(askId, `unknown frame type ${JSON.stringify(raw['type'])}`)
  }
}

/** A `rejected` reply. */
export function rejected(askId: string, code: RejectionCode, reason: string): RejectedFrame {
  return { type: 'rejected', askId, code, reason }
}

function refuse(askId: string, reason: string): WindowFrameCheck {
  return { ok: false, rejected: rejected(askId, 'INVALID_FRAME', reason) }
}
