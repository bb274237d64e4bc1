/** What the person has done so far with one question. */
export interface QuestionDraft {
  /** Picked option labels (raw labels, "(Recommended)" included). */
  selected: string[]
  /** Text typed into the free-form field, as typed. */
  custom: string
  /** "Skip this question" is on: the answer is `{id, selected: []}` whatever else is drafted. */
  skipped: boolean
}

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

function isQuestionDraft(value: unknown): value is QuestionDraft {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    Array.isArray(v.selected) &&
    v.selected.every((label) => typeof label === 'string') &&
    typeof v.custom === 'string' &&
    typeof v.skipped === 'boolean'
  )
}

/** Parses a stored draft (JSON text from storage); undefined when it is not a well-formed draft. */
export function parseDraft(text: string | null): AskDraft | undefined {
  if (text === null) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (!Array.isArray(value)) return undefined
    const drafts = value.map((entry) => (entry === null ? { ...EMPTY_QUESTION_DRAFT, selected: [] } : entry))
    return drafts.every(isQuestionDraft) ? drafts : undefined
  } catch {
    return undefined
  }
}
