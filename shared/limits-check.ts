import type { Limits } from './limits'
import type { AskUserQuestionInput } from './tool-input'

/**
 * Checks a schema-valid tool input against the safety caps. Returns one plain-language violation per
 * overflow (empty when within limits), each naming the path, the size found and the cap.
 */
export function checkLimits(input: AskUserQuestionInput, limits: Limits): string[] {
  const violations: string[] = []
  const text = (path: string, value: string | undefined): void => {
    if (value !== undefined && value.length > limits.textChars) {
      violations.push(`"${path}" has ${value.length} characters; at most ${limits.textChars} are allowed`)
    }
  }
  if (input.questions.length > limits.questionsPerAsk) {
    violations.push(
      `"questions" has ${input.questions.length} items; at most ${limits.questionsPerAsk} are allowed`,
    )
  }
  input.questions.forEach((question, q) => {
    const at = `questions[${q}]`
    text(`${at}.id`, question.id)
    text(`${at}.question`, question.question)
    text(`${at}.header`, question.header)
    // `detail` reaches the caps only from protocol v1 clients (the tool boundary drops it)
    const detail = question['detail']
    text(`${at}.detail`, typeof detail === 'string' ? detail : undefined)
    const options = question.options ?? []
    if (options.length > limits.optionsPerQuestion) {
      violations.push(
        `"${at}.options" has ${options.length} items; at most ${limits.optionsPerQuestion} are allowed`,
      )
    }
    options.forEach((option, o) => {
      text(`${at}.options[${o}].label`, option.label)
      text(`${at}.options[${o}].description`, option.description)
    })
  })
  return violations
}
