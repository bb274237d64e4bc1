// The one wording of a zod issue, in our words (never zod's), for every boundary: the tool's
// arguments (upstream's `invalid arguments: ...`), wire and UI frames (`invalid hello: ...`), approval
// requests, hook events and settings files; and the wording of a value over one of our caps.
import type { z } from 'zod'

/** One zod issue, as `safeParse` reports it. */
export type Issue = z.core.$ZodIssue

/** `["questions", 0, "id"]` → `questions[0].id`, the way upstream names argument paths. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/** A JSON type with its article, as the messages say it. */
const ARTICLE: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  number: 'a number',
  int: 'an integer',
}

/** True when `root` holds a value other than `undefined` at `path` (own keys only). */
function isPresent(root: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return false
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current !== undefined
}

const MISSING = 'missing required property '

const quoted = (values: readonly unknown[]): string => values.map((value) => JSON.stringify(value)).join(' or ')

/**
 * One zod issue about `input` in our words: `missing required property "client.name"`, `"id" must be
 * a string`, `"id" must not be empty`, `"id" must be at most 200 characters`, `"limit" must be at most
 * 1000`, `"client.pid" must be an integer`, `"type" must be "hello"`; a custom issue keeps its message
 * (we write those whole); anything else is `"<path>" is invalid`. An issue about the whole input names
 * it `root` (`"arguments" must be an object`).
 */
export function describeIssue(input: unknown, issue: Issue, root = 'arguments'): string {
  const where = formatPath(issue.path)
  const name = `"${where === '' ? root : where}"`
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length > 0 && !isPresent(input, issue.path)) return `${MISSING}${name}`
      return `${name} must be ${ARTICLE[issue.expected] ?? issue.expected}`
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1
          ? `${name} must not be empty`
          : `${name} must have at least ${String(issue.minimum)} characters`
      if (issue.origin === 'number') return `${name} must be at least ${String(issue.minimum)}`
      return `${name} must have at least ${String(issue.minimum)} items`
    case 'too_big':
      if (issue.origin === 'string') return `${name} must be at most ${String(issue.maximum)} characters`
      if (issue.origin === 'number') return `${name} must be at most ${String(issue.maximum)}`
      return `${name} must have at most ${String(issue.maximum)} items`
    case 'invalid_value':
      return `${name} must be ${quoted(issue.values)}`
    case 'invalid_union': {
      // an unknown discriminator (`kind`, `behavior`): zod lists the values it knows
      const options = (issue as { options?: unknown }).options
      return Array.isArray(options) && options.length > 0 ? `${name} must be ${quoted(options)}` : `${name} is invalid`
    }
    case 'custom':
      return issue.message
    default:
      return `${name} is invalid`
  }
}

/**
 * The first issue in our words ({@link describeIssue}), or `fallback` when there is none. For one-line
 * refusals: a hook event of the wrong shape, a settings file, a frame.
 */
export function describeFirstIssue(
  input: unknown,
  issues: readonly Issue[],
  fallback = 'bad shape',
  root?: string,
): string {
  const issue = issues[0]
  return issue ? describeIssue(input, issue, root) : fallback
}

/**
 * Issues about tool arguments as upstream lists them: every missing required property first, then
 * the rest, each group in document order. `missing required property "questions[0].id"`,
 * `"questions" must be an array`, `"questions[0].multi_select" must be a boolean`,
 * `"arguments" must be an object`.
 */
export function argumentViolations(input: unknown, issues: readonly Issue[]): string[] {
  const violations = issues.map((issue) => describeIssue(input, issue))
  return [...violations.filter((v) => v.startsWith(MISSING)), ...violations.filter((v) => !v.startsWith(MISSING))]
}

/** Upstream's INVALID_ARGS message: `invalid arguments: ` and the violations joined by `; `. */
export function invalidArgumentsMessage(violations: readonly string[]): string {
  return `invalid arguments: ${violations.join('; ')}`
}

/**
 * A value over one of our caps, as every `LIMIT_EXCEEDED` message says it: `"questions[0].id" has 201
 * characters; at most 200 are allowed` (`unit` `items` for a list).
 */
export function overCap(path: string, size: number, max: number, unit: 'characters' | 'items' = 'characters'): string {
  return `"${path}" has ${size} ${unit}; at most ${max} are allowed`
}

/** The `LIMIT_EXCEEDED` message: `limit exceeded: ` and every overflow ({@link overCap}) joined by `; `. */
export function limitExceededMessage(overflows: readonly string[]): string {
  return `limit exceeded: ${overflows.join('; ')}`
}

/**
 * The message of a refused frame: `invalid <what>: <first issue in our words>`, e.g.
 * `invalid hello: missing required property "client.name"`.
 */
export function invalidFrameMessage(what: string, frame: unknown, issues: readonly Issue[]): string {
  return `invalid ${what}: ${describeFirstIssue(frame, issues, 'bad shape', what)}`
}
