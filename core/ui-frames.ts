import type { z } from 'zod'
import {
  ANSWERER_CHANGES,
  UiAnswerFrameSchema,
  UiDecideFrameSchema,
  UiDismissFrameSchema,
  UiHistoryRequestFrameSchema,
  UiNoticeDismissFrameSchema,
  type RejectedFrame,
  type RejectionCode,
  type UiClientFrame,
} from '../shared/ui'
import { checkObjectFrame } from './frames'
import { invalidFrameMessage } from '../shared/issue-wording'

/** A window's frame after its one check: the typed frame, or the `ask/rejected` reply it gets instead. */
export type WindowFrameCheck<F = UiClientFrame> = { ok: true; frame: F } | { ok: false; rejected: RejectedFrame }

/** How one frame type is checked: its schema, and which member names what it is about (for a refusal). */
export interface WindowFrameRule<F> {
  schema: z.ZodType<F>
  subject: 'askId' | 'noticeId' | undefined
}

/** The UI channel v2's window frames. */
const RULES: Record<UiClientFrame['type'], WindowFrameRule<UiClientFrame>> = {
  'ask/answer': { schema: UiAnswerFrameSchema, subject: 'askId' },
  'ask/decide': { schema: UiDecideFrameSchema, subject: 'askId' },
  'ask/dismiss': { schema: UiDismissFrameSchema, subject: 'askId' },
  'notice/dismiss': { schema: UiNoticeDismissFrameSchema, subject: 'noticeId' },
  'history/get': { schema: UiHistoryRequestFrameSchema, subject: undefined },
}

/**
 * The one check of a v2 frame from a window, at its transport's edge (the UI socket decodes JSON first;
 * IPC hands over the structured clone): a JSON object with a string `type`, a known type, and that
 * type's schema. A refusal is `ask/rejected INVALID_FRAME` with what the frame named (its `askId`, or a
 * `notice/dismiss`'s `noticeId`) when that is a string; a frame that would change who may answer is
 * `FORBIDDEN`.
 */
export function parseWindowFrame(value: unknown): WindowFrameCheck {
  return checkWindowFrame(value, RULES)
}

/** {@link parseWindowFrame} against another table of frame types (UI channel v1's, ui-v1.ts). */
export function checkWindowFrame<F>(value: unknown, rules: Record<string, WindowFrameRule<F>>): WindowFrameCheck<F> {
  const checked = checkObjectFrame(value)
  if (!checked.ok) return refuse('', checked.message)
  const raw = checked.value
  const type = raw['type'] as string
  const rule = Object.hasOwn(rules, type) ? rules[type] : undefined
  if (rule === undefined) {
    const askId = typeof raw['askId'] === 'string' ? raw['askId'] : ''
    if (ANSWERER_CHANGES.has(type)) {
      return {
        ok: false,
        rejected: rejected(
          askId,
          'FORBIDDEN',
          `${type} changes who may answer: it is accepted only from the desktop app's own window or from \`ask-user\` in a terminal, never over the UI channel`,
        ),
      }
    }
    return refuse(askId, `unknown frame type ${JSON.stringify(type)}`)
  }
  const frame = rule.schema.safeParse(raw)
  if (frame.success) return { ok: true, frame: frame.data }
  const subject =
    rule.subject !== undefined && typeof raw[rule.subject] === 'string' ? (raw[rule.subject] as string) : ''
  return refuse(subject, invalidFrameMessage(`${type} frame`, raw, frame.error.issues))
}

/** An `ask/rejected` reply. */
export function rejected(askId: string, code: RejectionCode, reason: string): RejectedFrame {
  return { type: 'ask/rejected', askId, code, reason }
}

function refuse(askId: string, reason: string): { ok: false; rejected: RejectedFrame } {
  return { ok: false, rejected: rejected(askId, 'INVALID_FRAME', reason) }
}
