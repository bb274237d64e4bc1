import { z } from 'zod'

/** What the person has done so far with one question (as kept in memory and in sessionStorage). */
export const QuestionDraftSchema = z.object({
  /** Picked option labels (raw labels, "(Recommended)" included). */
  selected: z.array(z.string()),
  /** Text typed into the free-form field, as typed. */
  custom: z.string(),
  /** "Skip this question" is on: the answer is `{id, selected: []}` whatever else is drafted. */
  skipped: z.boolean(),
})

/** What the person has done so far with one question. */
export type QuestionDraft = z.infer<typeof QuestionDraftSchema>

/** A draft for a whole ask, one entry per question index (missing entries are empty). */
export type AskDraft = QuestionDraft[]

/** The draft of a question nobody has touched. */
export const EMPTY_QUESTION_DRAFT: Readonly<QuestionDraft> = Object.freeze({
  selected: [],
  custom: '',
  skipped: false,
})

/** True when the person has picked, typed or skipped anything in this question. */
export function questionTouched(draft: QuestionDraft | undefined): boolean {
  return !!draft && (draft.skipped || draft.selected.length > 0 || draft.custom.trim() !== '')
}

/** True when the person has put anything into this ask (a draft worth keeping). */
export function draftHasContent(draft: AskDraft | undefined): boolean {
  return !!draft && draft.some(questionTouched)
}

/** A stored ask draft: one entry per question index, `null` for a question never touched (a hole in the array). */
const StoredDraftSchema = z.array(
  QuestionDraftSchema.nullable().transform((draft) => draft ?? { ...EMPTY_QUESTION_DRAFT, selected: [] }),
)

/** Parses a stored draft (JSON text from storage); undefined when it is not a well-formed draft. */
export function parseDraft(text: string | null): AskDraft | undefined {
  if (text === null) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const parsed = StoredDraftSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}
