import { z } from 'zod'
import type { Answer } from '../../shared/answer'
import { questionId } from '../hook-kit'

/** Claude Code's `AskUserQuestion` input (sdk-tools.d.ts `AskUserQuestionInput`); extra keys kept. */
export const ClaudeQuestionsInputSchema = z.looseObject({
  questions: z
    .array(
      z.looseObject({
        question: z.string(),
        header: z.string().optional(),
        options: z.array(z.looseObject({ label: z.string(), description: z.string().optional() })),
        multiSelect: z.boolean().optional(),
      }),
    )
    .min(1),
})
export type ClaudeQuestionsInput = z.infer<typeof ClaudeQuestionsInputSchema>

/**
 * The person's answers as Claude's `answers` map, keyed by question text: the picked labels joined
 * with ", " (how Claude's own dialog joins a multi-select), words of their own as the answer (after
 * the labels, for a multi-select). A skipped question is left out, as in Claude's dialog.
 */
export function toClaudeAnswers(input: ClaudeQuestionsInput, answers: readonly Answer[]): Record<string, string> {
  const out: Record<string, string> = {}
  input.questions.forEach((q, index) => {
    const answer = answers.find((a) => a.id === questionId(index))
    if (!answer) return
    const parts = [...answer.selected, ...(answer.custom !== undefined ? [answer.custom] : [])]
    if (parts.length > 0) out[q.question] = parts.join(', ')
  })
  return out
}
