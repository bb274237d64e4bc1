import type { AnswerViolation } from '../../../shared/answer-rules'
import type { MessageKey } from '../i18n/messages'

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string

/** The first quoted label after the question reference in a violation message, if any. */
function quotedLabel(message: string): string {
  const afterPrefix = message.replace(/^answer \d+ \("(?:[^"\\]|\\.)*"\): /, '')
  const match = /"([^"]*)"/.exec(afterPrefix)
  return match?.[1] ?? ''
}

/** The person-facing, translated text of one answer-rule violation. */
export function violationText(violation: AnswerViolation, t: Translate): string {
  switch (violation.code) {
    case 'ANSWER_COUNT':
      return t('violationCount')
    case 'ID_MISMATCH':
      return t('violationId')
    case 'UNKNOWN_LABEL':
      return t('violationUnknown', { label: quotedLabel(violation.message) })
    case 'DUPLICATE_LABEL':
      return t('violationDuplicate', { label: quotedLabel(violation.message) })
    case 'TOO_MANY_LABELS':
      return t('violationTooMany')
    case 'CUSTOM_WITH_LABEL':
      return t('violationCustomWithLabel')
    case 'BLANK_CUSTOM':
      return t('violationBlank')
    case 'CUSTOM_TOO_LONG':
      return t('violationTooLong')
    case 'SECRET_UNANSWERED':
      return t('violationSecret')
    default:
      return t('violationOther', { message: violation.message })
  }
}
