import { z } from 'zod'

/**
 * The `ask_user_question` tool input, field for field as upstream: snake_case `multi_select`, extra
 * keys tolerated at every level, only `questions` (root), `id`/`question` (question) and `label`
 * (option) required. No size caps here: they are settings, checked by `validateToolInput` (validate-input.ts)
 * so that the JSON schema the model sees stays exactly upstream's.
 */
export const QuestionOptionSchema = z.looseObject({
  label: z.string().describe('Short, user-facing text of the choice; returned verbatim when picked.'),
  description: z.string().optional().describe('One sentence on what picking this option means or costs.'),
})
export type QuestionOption = z.infer<typeof QuestionOptionSchema>

export const QuestionSchema = z.looseObject({
  id: z.string().describe('Stable identifier of this question, echoed back in its answer.'),
  question: z.string().describe('The full question, as a complete sentence.'),
  header: z
    .string()
    .optional()
    .describe('A very short heading for the question, one or two words (for example "Database").'),
  options: z
    .array(QuestionOptionSchema)
    .optional()
    .describe(
      'Choices to offer. Put a recommended choice first and end its label with "(Recommended)". ' +
        'The person may always answer in their own words instead.',
    ),
  multi_select: z.boolean().optional().describe('Allow several options to be picked together. Defaults to false.'),
})
export type Question = z.infer<typeof QuestionSchema>

export const AskUserQuestionInputSchema = z.looseObject({
  questions: z
    .array(QuestionSchema)
    .describe('The questions to put to the person, in the order they should read them.'),
})
export type AskUserQuestionInput = z.infer<typeof AskUserQuestionInputSchema>

/** True when the question lets the person pick several options. */
export function isMultiSelect(question: Pick<Question, 'multi_select'>): boolean {
  return question.multi_select === true
}

/**
 * A copy of a question with only the fields the contract names (extra keys dropped, at every level).
 * What windows and the history get: extra keys mean nothing to a person, and an agent's arbitrary
 * nested data must not travel further than the companion's front door.
 */
export function knownQuestionFields(question: Question): Question {
  const out: Question = { id: question.id, question: question.question }
  if (question.header !== undefined) out.header = question.header
  if (question.options !== undefined) {
    out.options = question.options.map(knownOptionFields)
  }
  if (question.multi_select !== undefined) out.multi_select = question.multi_select
  return out
}

/** A copy of an option with only `label` and, when present, `description`. */
export function knownOptionFields(option: { label: string; description?: string | undefined }): QuestionOption {
  return option.description === undefined
    ? { label: option.label }
    : { label: option.label, description: option.description }
}
