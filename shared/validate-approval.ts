import { describeIssue, invalidArgumentsMessage, limitExceededMessage, overCap, type Issue } from './issue-wording'
import type { Result } from './error-codes'
import type { Limits } from './limits'
import {
  APPROVAL_BODY_CHARS,
  ApprovalRequestSchema,
  NoticeSchema,
  approvalBodyFields,
  approvalShortFields,
  type ApprovalRequest,
  type Notice,
} from './approval'

/** The codes {@link validateApproval} and {@link validateNotice} refuse with. */
type PayloadCode = 'INVALID_ARGS' | 'LIMIT_EXCEEDED'

/**
 * Checks the `approval` of an `approve` frame (or of `client.requestApproval`): the shape
 * (`INVALID_ARGS`, in our words: `invalid arguments: missing required property "approval.tool"`),
 * then the caps (`LIMIT_EXCEEDED`, every overflow named): `textChars` for the short fields,
 * {@link APPROVAL_BODY_CHARS} for a command, diff, content, plan or tool input. Never throws.
 */
export function validateApproval(raw: unknown, limits: Limits): Result<ApprovalRequest, PayloadCode> {
  const parsed = ApprovalRequestSchema.safeParse(raw)
  if (!parsed.success) return invalid('approval', raw, parsed.error.issues)
  const request = parsed.data
  const overflows: string[] = []
  for (const [path, text] of approvalShortFields(request)) {
    if (text.length > limits.textChars) overflows.push(overCap(`approval.${path}`, text.length, limits.textChars))
  }
  const bodyCap = Math.min(APPROVAL_BODY_CHARS, limits.frameBytes)
  for (const [path, text] of approvalBodyFields(request)) {
    if (text.length > bodyCap) overflows.push(overCap(`approval.${path}`, text.length, bodyCap))
  }
  if (overflows.length > 0) return { ok: false, code: 'LIMIT_EXCEEDED', message: limitExceededMessage(overflows) }
  return { ok: true, value: request }
}

/** Checks the `notice` of a `notice` frame (or of `client.notify`): shape, then `text` within `textChars`. */
export function validateNotice(raw: unknown, limits: Limits): Result<Notice, PayloadCode> {
  const parsed = NoticeSchema.safeParse(raw)
  if (!parsed.success) return invalid('notice', raw, parsed.error.issues)
  const { text } = parsed.data
  if (text.length > limits.textChars) {
    return {
      ok: false,
      code: 'LIMIT_EXCEEDED',
      message: limitExceededMessage([overCap('notice.text', text.length, limits.textChars)]),
    }
  }
  return { ok: true, value: parsed.data }
}

function invalid(root: string, raw: unknown, issues: readonly Issue[]): Result<never, PayloadCode> {
  const wrapped = { [root]: raw }
  const violations = issues
    .slice(0, 3)
    .map((issue) => describeIssue(wrapped, { ...issue, path: [root, ...issue.path] }))
  return { ok: false, code: 'INVALID_ARGS', message: invalidArgumentsMessage(violations) }
}
