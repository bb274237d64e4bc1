// What `ask-user ask` refuses or warns about beyond the tool's own rules: the tool keeps accepting
// what upstream accepts (a model's call must not fail on it), but a person typing a command line
// means something, and an empty question or two options with one label cannot be what they meant.
import { isRecord } from '../shared/is-record'
import { QuestionSchema } from '../shared/tool-input'
import type { ValidatedAsk } from '../shared/validate-input'

/** Where the questions came from: the flags (`--question`, `--option`) or `--json` tool arguments. */
export type AskSource = 'flags' | 'json'

/**
 * Why `ask` cannot mean what it was given, or undefined: a question with no text (after trimming),
 * or one question offering the same option label twice (the answer names the label, so a pick of
 * either would read the same). Worded for the flags or for the JSON path the person wrote.
 */
export function unmeantAsk(ask: ValidatedAsk, source: AskSource): string | undefined {
  for (const [at, question] of ask.questions.entries()) {
    const where = source === 'flags' ? '--question' : `questions[${at}].question`
    if (question.question.trim() === '') return `${where} is empty; write the question the person should answer`
    const labels = (question.options ?? []).map((option) => option.label)
    const twice = labels.find((label, index) => labels.indexOf(label) !== index)
    if (twice !== undefined) {
      const what =
        source === 'flags'
          ? `--option ${JSON.stringify(twice)}`
          : `questions[${at}].options label ${JSON.stringify(twice)}`
      return `${what} is given twice; give each option its own label (the answer names the label picked)`
    }
  }
  return undefined
}

const TOOL_QUESTION_KEYS: ReadonlySet<string> = new Set(Object.keys(QuestionSchema.shape))

/**
 * The warning for fields of `--json` questions that the tool's arguments do not have, which `ask`
 * therefore drops (`detail`, `intent`, a typo), or undefined when nothing is dropped. `json` is the
 * parsed file as given, before validation.
 */
export function droppedFieldsWarning(json: unknown): string | undefined {
  const questions = isRecord(json) && Array.isArray(json['questions']) ? (json['questions'] as unknown[]) : []
  const dropped = questions.flatMap((question, at) =>
    isRecord(question)
      ? Object.keys(question)
          .filter((key) => !TOOL_QUESTION_KEYS.has(key))
          .map((key) => `questions[${at}].${key}`)
      : [],
  )
  if (dropped.length === 0) return undefined
  const detail = dropped.some((path) => path.endsWith('.detail'))
    ? '; to show detail, ask one question with --question and --detail'
    : ''
  return `--json takes the tool's arguments, which have no ${dropped.join(', ')}: dropped${detail}`
}
