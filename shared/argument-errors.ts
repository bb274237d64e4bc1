import type { z } from 'zod'

/** `["questions", 0, "id"]` → `questions[0].id`, the way upstream names argument paths. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  number: 'a number',
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return { found: false, value: undefined }
    }
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return { found: true, value: current }
}

const MISSING = 'missing required property '

/**
 * Turns zod issues about tool arguments into upstream-shaped violations, one string each, in
 * upstream's order: every missing required property first, then the type errors, each group in
 * document order. `missing required property "questions[0].id"`, `"questions" must be an array`,
 * `"questions[0].multi_select" must be a boolean`, `"arguments" must be an object`.
 */
export function describeArgumentIssues(input: unknown, issues: readonly z.core.$ZodIssue[]): string[] {
  const violations = issues.map((issue) => describeIssue(input, issue))
  return [...violations.filter((v) => v.startsWith(MISSING)), ...violations.filter((v) => !v.startsWith(MISSING))]
}

function describeIssue(input: unknown, issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path)
  if (issue.code === 'invalid_type') {
    const kind = ARTICLE[issue.expected] ?? issue.expected
    if (issue.path.length === 0) return `"arguments" must be ${kind}`
    const { found, value } = valueAt(input, issue.path)
    if (!found || value === undefined) return `${MISSING}"${where}"`
    return `"${where}" must be ${kind}`
  }
  return where === '' ? issue.message : `"${where}": ${issue.message}`
}

/** Upstream's INVALID_ARGS message: `invalid arguments: ` and the violations joined by `; `. */
export function invalidArgumentsMessage(violations: readonly string[]): string {
  return `invalid arguments: ${violations.join('; ')}`
}
