// The window's `answer` frame on the path of every answer, checked by hand in the common case, with
// zod (UiAnswerFrameSchema: the one source of the rules) for everything else and to explain a refusal.
import { UiAnswerFrameSchema, type UiAnswerFrame } from '../shared/ui'
import type { Answer } from '../shared/answer'

type AnswerFrameCheck = { success: true; data: UiAnswerFrame } | ReturnType<typeof UiAnswerFrameSchema.safeParse>

/**
 * `UiAnswerFrameSchema.safeParse(raw)` with the same result: a frame whose `askId` is a string and whose
 * `answers` are objects with a string `id`, an array of strings `selected` and a string `custom` or none
 * is rebuilt by hand with only the schema's keys (zod strips the others); any other frame goes to zod.
 */
export function checkAnswerFrame(raw: Record<string, unknown>): AnswerFrameCheck {
  const askId = raw['askId']
  const answers = raw['answers']
  if (raw['type'] === 'answer' && typeof askId === 'string' && Array.isArray(answers)) {
    const checked = answersByHand(answers)
    if (checked) return { success: true, data: { type: 'answer', askId, answers: checked } }
  }
  return UiAnswerFrameSchema.safeParse(raw)
}

function answersByHand(answers: unknown[]): Answer[] | undefined {
  const out: Answer[] = new Array(answers.length)
  for (let i = 0; i < answers.length; i++) {
    const given = answers[i] as Record<string, unknown> | null
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return undefined
    const { id, selected, custom } = given
    if (typeof id !== 'string' || !Array.isArray(selected)) return undefined
    for (let j = 0; j < selected.length; j++) if (typeof selected[j] !== 'string') return undefined
    if (typeof custom === 'string') out[i] = { id, selected: selected.slice(), custom }
    else if (custom === undefined && !('custom' in given)) out[i] = { id, selected: selected.slice() }
    else return undefined
  }
  return out
}
