import { z } from 'zod'

/** The answer to one question: the picked labels (verbatim) and, optionally, words of the person's own. */
export const AnswerSchema = z.object({
  id: z.string(),
  selected: z.array(z.string()),
  custom: z.string().optional(),
})
export type Answer = z.infer<typeof AnswerSchema>

/** The canonical answer to a whole ask: one entry per question, in question order. */
export const AskAnswerSchema = z.object({ answers: z.array(AnswerSchema) })
export type AskAnswer = z.infer<typeof AskAnswerSchema>

/** Copies an answer with its keys in canonical order (`id`, `selected`, `custom`), dropping unused `custom`. */
export function canonicalAnswer(answer: Answer): Answer {
  const out: Answer = { id: answer.id, selected: [...answer.selected] }
  if (answer.custom !== undefined) out.custom = answer.custom
  return out
}

/**
 * The tool's text result: compact `JSON.stringify` of `{answers}` with keys in the order `id`,
 * `selected`, `custom`, and `custom` omitted when unused — byte-identical to upstream.
 */
export function renderAnswer(answer: AskAnswer): string {
  return JSON.stringify({ answers: answer.answers.map(canonicalAnswer) })
}
