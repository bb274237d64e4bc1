import { extraText, leftoverFields } from '../shared/approval-extra'
import type { ApprovalWarning, ApprovalWarningCode } from '../shared/approval'

/** What a hook adds to an approval besides its action: the input's other fields and the warnings. */
export interface InputNotes {
  extra?: string
  warnings?: ApprovalWarning[]
}

/** A warning of a known code, with the English sentence naming the harness's flag. */
export function warning(code: ApprovalWarningCode, message: string): ApprovalWarning {
  return { code, message }
}

/**
 * The notes of one tool input: `extra` = every field not in `shown` (the ones the action renders),
 * `warnings` as given; both left out when empty, so an ordinary request keeps its old shape.
 */
export function inputNotes(
  input: unknown,
  shown: readonly string[],
  warnings: readonly ApprovalWarning[] = [],
): InputNotes {
  return notesOf(leftoverFields(input, shown), warnings)
}

/** {@link inputNotes} from fields already gathered (a harness whose shown fields sit at several levels). */
export function notesOf(fields: Record<string, unknown>, warnings: readonly ApprovalWarning[]): InputNotes {
  const extra = extraText(fields)
  return { ...(extra !== undefined ? { extra } : {}), ...(warnings.length > 0 ? { warnings: [...warnings] } : {}) }
}

/** True for the JSON `true` and for the strings "true" / "1" a model sometimes sends instead. */
export function isOn(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1'
}
