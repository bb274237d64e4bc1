import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  argumentViolations,
  describeFirstIssue,
  describeIssue,
  formatPath,
  invalidArgumentsMessage,
  invalidFrameMessage,
  limitExceededMessage,
  overCap,
  type Issue,
} from '../../../shared/issue-wording'

const issuesOf = (schema: z.ZodType, value: unknown): Issue[] => {
  const parsed = schema.safeParse(value)
  if (parsed.success) throw new Error('expected a refusal')
  return parsed.error.issues
}

describe('the one wording of a zod issue', () => {
  it('writes paths the way upstream names argument paths', () => {
    expect(formatPath(['questions', 0, 'options', 2, 'label'])).toBe('questions[0].options[2].label')
    expect(formatPath([])).toBe('')
    expect(invalidArgumentsMessage(['a', 'b'])).toBe('invalid arguments: a; b')
  })

  it('tells a missing property from one of the wrong type, and names the root', () => {
    const schema = z.object({ client: z.object({ name: z.string(), pid: z.number().int() }) })
    expect(
      issuesOf(schema, { client: { pid: 1.5 } }).map((issue) => describeIssue({ client: { pid: 1.5 } }, issue)),
    ).toEqual(['missing required property "client.name"', '"client.pid" must be an integer'])
    expect(describeIssue(7, issuesOf(schema, 7)[0]!)).toBe('"arguments" must be an object')
    expect(describeIssue(7, issuesOf(schema, 7)[0]!, 'settings')).toBe('"settings" must be an object')
  })

  it('words sizes, literals and unknown discriminators without zod’s words', () => {
    const schema = z.object({
      id: z.string().min(1).max(3),
      limit: z.number().max(10),
      type: z.literal('hello'),
      kind: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]),
    })
    const value = { id: 'abcd', limit: 11, type: 'bye', kind: { kind: 'c' } }
    expect(issuesOf(schema, value).map((issue) => describeIssue(value, issue))).toEqual([
      '"id" must be at most 3 characters',
      '"limit" must be at most 10',
      '"type" must be "hello"',
      '"kind.kind" must be "a" or "b"',
    ])
    expect(describeIssue({ id: '' }, issuesOf(schema.pick({ id: true }), { id: '' })[0]!)).toBe(
      '"id" must not be empty',
    )
  })

  it('keeps a custom issue’s own message (we write those whole)', () => {
    const issue = {
      code: 'custom',
      path: ['questions', 0],
      message: '"questions[0]" is bad',
      input: 1,
    } as unknown as Issue
    expect(describeIssue({}, issue)).toBe('"questions[0]" is bad')
  })

  it('lists argument violations as upstream: missing properties first, then type errors', () => {
    const schema = z.object({ questions: z.array(z.object({ id: z.string(), question: z.string() })) })
    const value = { questions: [{ id: 5 }] }
    expect(invalidArgumentsMessage(argumentViolations(value, issuesOf(schema, value)))).toBe(
      'invalid arguments: missing required property "questions[0].question"; "questions[0].id" must be a string',
    )
  })

  it('gives a one-line refusal: the first issue, a frame’s, or the fallback', () => {
    const schema = z.object({ port: z.number() })
    expect(describeFirstIssue({ port: 'x' }, issuesOf(schema, { port: 'x' }))).toBe('"port" must be a number')
    expect(describeFirstIssue({}, [])).toBe('bad shape')
    expect(describeFirstIssue({}, [], 'invalid')).toBe('invalid')
    expect(invalidFrameMessage('hello', {}, issuesOf(z.object({ client: z.object({}) }), {}))).toBe(
      'invalid hello: missing required property "client"',
    )
  })

  it('words a value over a cap the same way everywhere', () => {
    expect(limitExceededMessage([overCap('questions[0].id', 201, 200), overCap('questions', 60, 50, 'items')])).toBe(
      'limit exceeded: "questions[0].id" has 201 characters; at most 200 are allowed; "questions" has 60 items; at most 50 are allowed',
    )
  })
})
