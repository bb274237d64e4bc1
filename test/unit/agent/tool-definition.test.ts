import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { AskUserError } from '../../../shared/error-codes'
import {
  TOOL_DESCRIPTION,
  TOOL_NAME,
  createAskUserQuestionTool,
  executeAskUserQuestion,
  toolInputJsonSchema,
} from '../../../agent/tool-definition'
import { toolFailure } from '../../../agent/tool-result'
import { UserInteraction, type UserInteractionRequest } from '../../../agent/user-interaction'

type Schema = {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  additionalProperties?: unknown
}

function seamWith(answer: (request: UserInteractionRequest) => Promise<unknown>): UserInteraction {
  const seam = new UserInteraction()
  seam.registerProvider({ ask: answer as never })
  return seam
}

describe('the tool definition', () => {
  const tool = createAskUserQuestionTool()

  it('is named ask_user_question and describes when to ask, recommendation, own words, skip, waiting, result', () => {
    expect(tool.name).toBe('ask_user_question')
    expect(TOOL_NAME).toBe('ask_user_question')
    expect(tool.description).toBe(TOOL_DESCRIPTION)
    for (const phrase of ['(Recommended)', 'own words', 'skip', 'blocks until', '"answers"', 'ASK_CANCELLED']) {
      expect(tool.description).toContain(phrase)
    }
  })

  it("has exactly upstream's properties and required lists, inline, without $schema or $ref", () => {
    const root = tool.inputSchema as Schema
    expect(JSON.stringify(root)).not.toContain('$ref')
    expect(root).not.toHaveProperty('$schema')
    expect(root.type).toBe('object')
    expect(Object.keys(root.properties!)).toEqual(['questions'])
    expect(root.required).toEqual(['questions'])
    const questions = root.properties!.questions!
    expect(questions.type).toBe('array')
    const question = questions.items!
    expect(question.type).toBe('object')
    expect(Object.keys(question.properties!).sort()).toEqual(['header', 'id', 'multi_select', 'options', 'question'])
    expect(question.required).toEqual(['id', 'question'])
    expect(question.properties!.multi_select!.type).toBe('boolean')
    const option = question.properties!.options!.items!
    expect(Object.keys(option.properties!).sort()).toEqual(['description', 'label'])
    expect(option.required).toEqual(['label'])
    // The literal true (upstream's schema, the Inspector's --strict), not zod's {}.
    for (const level of [root, question, option]) expect(level.additionalProperties).toBe(true)
  })

  it('carries a title and MCP annotations: read-only, not destructive, not idempotent, closed world', () => {
    expect(tool.title).toBe('Ask the user')
    expect(tool.annotations).toEqual({
      title: 'Ask the user',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    })
  })

  it('returns a fresh schema each time', () => {
    const a = toolInputJsonSchema()
    a.type = 'changed'
    expect(toolInputJsonSchema().type).toBe('object')
  })
})

describe('execute', () => {
  const args = {
    questions: [
      {
        id: 'pkg',
        question: 'Which package manager?',
        header: 'Tooling',
        options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }],
      },
      {
        id: 'targets',
        question: 'What ships?',
        multi_select: true,
        options: [{ label: 'tests' }, { label: 'docs' }],
        extra: 1,
      },
    ],
  }

  it('converts to the seam, returns the canonical JSON as one text block', async () => {
    const ask = vi.fn(async () => ({
      answers: [
        { selected: ['pnpm (Recommended)'], id: 'pkg' },
        { id: 'targets', selected: ['tests', 'docs'], custom: 'release notes' },
      ],
    }))
    const signal = new AbortController().signal
    const result = await executeAskUserQuestion(args, {
      interaction: seamWith(ask),
      signal,
      agent: { name: 'harness' },
    })
    expect(result).toEqual({
      isError: false,
      content: [
        {
          type: 'text',
          text: '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]},{"id":"targets","selected":["tests","docs"],"custom":"release notes"}]}',
        },
      ],
    })
    expect(ask).toHaveBeenCalledWith({
      questions: [
        {
          id: 'pkg',
          question: 'Which package manager?',
          header: 'Tooling',
          options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }],
        },
        { id: 'targets', question: 'What ships?', options: [{ label: 'tests' }, { label: 'docs' }], multiSelect: true },
      ],
      agent: { name: 'harness' },
      signal,
    })
  })

  it.each([
    [{ questions: 'x' }, 'INVALID_ARGS', 'Error: invalid arguments: "questions" must be an array'],
    [
      { questions: [{ question: 'q' }] },
      'INVALID_ARGS',
      'Error: invalid arguments: missing required property "questions[0].id"',
    ],
    [
      { questions: [] },
      'EMPTY_QUESTIONS',
      'Error: ask_user_question needs at least one question; "questions" was empty',
    ],
  ])('refuses %j with %s', async (input, code, text) => {
    const ask = vi.fn()
    const result = await executeAskUserQuestion(input, { interaction: seamWith(ask) })
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text }], error: { name: 'AskUserError', code } })
    expect(ask).not.toHaveBeenCalled()
  })

  it('refuses an ask over a cap with LIMIT_EXCEEDED', async () => {
    const many = { questions: Array.from({ length: 51 }, (_, i) => ({ id: `q${i}`, question: 'q' })) }
    const result = await executeAskUserQuestion(many, { interaction: new UserInteraction() })
    expect(result).toMatchObject({ isError: true, error: { code: 'LIMIT_EXCEEDED' } })
  })

  it('reports NO_PROVIDER, ASK_ABORTED and provider errors as results', async () => {
    const valid = { questions: [{ id: 'a', question: 'q' }] }
    expect(await executeAskUserQuestion(valid, { interaction: new UserInteraction() })).toMatchObject({
      isError: true,
      error: { code: 'NO_PROVIDER' },
    })
    expect(
      await executeAskUserQuestion(valid, { interaction: seamWith(vi.fn()), signal: AbortSignal.abort() }),
    ).toMatchObject({ isError: true, error: { code: 'ASK_ABORTED' } })
    const cancelled = await executeAskUserQuestion(valid, {
      interaction: seamWith(async () =>
        Promise.reject(new AskUserError('ASK_CANCELLED', 'the user cancelled ask_user_question')),
      ),
    })
    expect(cancelled).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Error: the user cancelled ask_user_question' }],
      error: { name: 'AskUserError', code: 'ASK_CANCELLED' },
    })
    const crashed = await executeAskUserQuestion(valid, {
      interaction: seamWith(async () => Promise.reject(new TypeError('boom'))),
    })
    expect(crashed).toMatchObject({
      isError: true,
      content: [{ text: 'Error: the answering side failed: boom' }],
      error: { code: 'NO_PROVIDER' },
    })
  })

  it('never passes on a provider answer that breaks the rules or the shape', async () => {
    const valid = { questions: [{ id: 'a', question: 'q', options: [{ label: 'x' }] }] }
    for (const bad of [
      { answers: [{ id: 'a', selected: ['not offered'] }] },
      { answers: [{ id: 'b', selected: [] }] },
      { answers: [] },
      { answers: [{ id: 'a', selected: [], custom: '  ' }] },
      { answers: [{ id: 'a' }] },
      null,
      'x',
    ]) {
      const result = await executeAskUserQuestion(valid, { interaction: seamWith(async () => bad) })
      expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_ANSWER' } })
      expect(result.content[0].text).toMatch(/^Error: the answer given /)
    }
  })

  it('never throws on malformed arguments of any shape (property)', async () => {
    const interaction = seamWith(async () => ({ answers: [] }))
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ questions: fc.jsonValue() }),
          fc.record({
            questions: fc.array(
              fc.dictionary(
                fc.constantFrom('id', 'question', 'header', 'options', 'multi_select', 'x'),
                fc.jsonValue(),
              ),
            ),
          }),
        ),
        async (value) => {
          const result = await executeAskUserQuestion(value, { interaction })
          expect(result.content).toHaveLength(1)
          if (result.isError) expect(result.content[0].text).toMatch(/^Error: /)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('toolFailure keeps codes of AskUserErrors and stringifies non-errors', () => {
    expect(toolFailure('weird')).toMatchObject({ content: [{ text: 'Error: the answering side failed: weird' }] })
    expect(toolFailure(new AskUserError('ASK_ABORTED', 'x')).error).toEqual({
      name: 'AskUserError',
      code: 'ASK_ABORTED',
    })
  })
})
