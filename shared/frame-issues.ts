import type { z } from 'zod'
import { formatPath } from './argument-errors'

const KIND: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  number: 'a number',
  int: 'an integer',
}

function has(root: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return false
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current !== undefined
}

/**
 * One zod issue about a wire or UI frame in our own words (never zod's): `missing required property
 * "client.name"`, `"id" must be a string`, `"id" must not be empty`, `"id" must be at most 200
 * characters`, `"limit" must be at most 1000`, `"client.pid" must be an integer`, `"type" must be
 * "hello"`; anything else is `"<path>" is invalid`. Paths are written the way upstream writes
 * argument paths (`answers[0].selected`).
 */
export function describeFrameIssue(frame: unknown, issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path)
  const name = `"${where}"`
  switch (issue.code) {
    case 'invalid_type':
      if (!has(frame, issue.path)) return `missing required property ${name}`
      return `${name} must be ${KIND[issue.expected] ?? issue.expected}`
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? `${name} must not be empty` : `${name} must have at least ${String(issue.minimum)} characters`
      if (issue.origin === 'number') return `${name} must be at least ${String(issue.minimum)}`
      return `${name} must have at least ${String(issue.minimum)} items`
    case 'too_big':
      if (issue.origin === 'string') return `${name} must be at most ${String(issue.maximum)} characters`
      if (issue.origin === 'number') return `${name} must be at most ${String(issue.maximum)}`
      return `${name} must have at most ${String(issue.maximum)} items`
    case 'invalid_value':
      return `${name} must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`
    case 'invalid_union': {
      // an unknown discriminator (`kind`, `behavior`): zod lists the values it knows
      const options = (issue as { options?: unknown }).options
      if (Array.isArray(options) && options.length > 0) return `${name} must be ${options.map((value) => JSON.stringify(value)).join(' or ')}`
      return `${name} is invalid`
    }
    default:
      return `${name} is invalid`
  }
}

/**
 * The message of a refused frame: `invalid <what>: <first issue in our words>` (see
 * {@link describeFrameIssue}), e.g. `invalid hello: missing required property "client.name"`.
 */
export function invalidFrameMessage(what: string, frame: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0]
  return `invalid ${what}: ${issue ? describeFrameIssue(frame, issue) : 'bad shape'}`
}
