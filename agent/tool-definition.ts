import { z } from 'zod'
import { AskAnswerSchema, renderAnswer } from '../shared/answer'
import { acceptAnswer, type CheckedAnswer } from '../shared/answer-rules'
import { AskUserError } from '../shared/error-codes'
import { AskUserQuestionInputSchema } from '../shared/tool-input'
import { validateToolInput, type ValidatedAsk } from '../shared/validate-input'
import type { Limits } from '../shared/limits'
import { toUserQuestion } from './question-mapping'
import { toolFailure, toolSuccess, type ToolResult } from './tool-result'
import type { UserInteractionAgent, UserInteractionSeam } from './user-interaction'

/** The tool's name, as upstream. */
export const TOOL_NAME = 'ask_user_question'

/** What the model reads about the tool (our own words; the contract is upstream's). */
export const TOOL_DESCRIPTION = [
  'Ask the person you are working for one or more questions and wait for their reply. Use it when you ' +
    'cannot continue well without their decision: an ambiguous request, a choice between approaches with ' +
    'real trade-offs, or a preference only they can state. Do not ask what you can find out yourself, and ' +
    'group related questions into one call.',
  'Each question has a stable `id` (echoed back), the `question` as a full sentence, an optional short ' +
    '`header`, optional `options` ({label, description}) and `multi_select` (default false). When you have ' +
    'a recommendation, put it first and end its label with "(Recommended)". The person may pick options, ' +
    'answer in their own words instead (or as well, for multi-select questions), or skip a question. ' +
    'The call blocks until the person answers or dismisses the questions; there is no default answer.',
  'Result: JSON {"answers":[{"id":"<question id>","selected":["<label>"],"custom":"<own words>"}]}, one ' +
    'entry per question in the same order. `selected` holds the picked labels verbatim (empty when nothing ' +
    'was picked or the question was skipped); `custom` is present only when the person wrote an answer of ' +
    'their own. If the person dismisses the questions the call fails with ASK_CANCELLED: do not assume an ' +
    'answer; carry on with what you know or ask differently.',
].join('\n\n')

/** A short human-readable name for the tool (MCP `title`, shown by clients in lists and prompts). */
export const TOOL_TITLE = 'Ask the user'

/**
 * MCP tool annotations: asking changes nothing in the world the agent works on (read-only, not
 * destructive, closed world), so clients such as Codex need not ask approval for every call; asking
 * twice may get two different answers, so it is not idempotent.
 */
export const TOOL_ANNOTATIONS = {
  title: TOOL_TITLE,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const

/** A JSON schema object (draft 2020-12), as tool hosts and MCP expect it. */
export type JsonSchema = Record<string, unknown>

/**
 * The input JSON schema generated from `AskUserQuestionInputSchema`: inline (no `$ref`), no `$schema`
 * key, extra keys allowed at every level as the literal `additionalProperties: true` (upstream's
 * schema and the Inspector's `--strict` expect it; zod writes `{}`). Returns a fresh copy on each call.
 */
export function toolInputJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(AskUserQuestionInputSchema, { io: 'input', reused: 'inline' }) as JsonSchema
  const { $schema: _ignored, ...schema } = generated
  return literalAdditionalProperties(schema) as JsonSchema
}

/** A copy of `node` with every `additionalProperties: {}` (anything goes) written as `true`. */
function literalAdditionalProperties(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(literalAdditionalProperties)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    const anything =
      key === 'additionalProperties' && value !== null && typeof value === 'object' && Object.keys(value).length === 0
    out[key] = anything ? true : literalAdditionalProperties(value)
  }
  return out
}

/** Per-call context: the seam to ask through (ours or a host's), the host's abort signal and, optionally, who is asking. */
export interface ToolContext {
  interaction: Pick<UserInteractionSeam, 'ask'>
  signal?: AbortSignal
  agent?: UserInteractionAgent
  /** Safety caps; `DEFAULT_LIMITS` (shared/limits.ts) when absent. */
  limits?: Limits
}

/** The `ask_user_question` tool as a host registers it. */
export interface AskUserQuestionTool {
  name: typeof TOOL_NAME
  /** {@link TOOL_TITLE}. */
  title: string
  description: string
  inputSchema: JsonSchema
  /** {@link TOOL_ANNOTATIONS}. */
  annotations: typeof TOOL_ANNOTATIONS
  /** Runs one call. Never throws: every failure is an `isError: true` result. */
  execute(args: unknown, ctx: ToolContext): Promise<ToolResult>
}

/**
 * Runs one call of the tool with the asking left to `ask`: validates `args` (the model's arguments:
 * the one check of the call's input, with `limits`, default DESIGN.md's), hands them on typed, and
 * renders the checked answer as the one text block. Every failure (bad arguments, no companion,
 * dismissal, abort, anything `ask` throws) becomes an `isError: true` result; nothing is thrown and no
 * answer is ever invented. The MCP server asks the client directly; {@link executeAskUserQuestion}
 * asks through the seam.
 */
export async function runAskUserQuestion(
  args: unknown,
  limits: Limits | undefined,
  ask: (input: ValidatedAsk) => Promise<CheckedAnswer>,
): Promise<ToolResult> {
  try {
    const check = validateToolInput(args, limits)
    if (!check.ok) return toolFailure(new AskUserError(check.code, check.message))
    return toolSuccess(renderAnswer(await ask(check.value)))
  } catch (error) {
    return toolFailure(error)
  }
}

/**
 * Validates `args`, asks through the seam, checks the provider's answer against the answer rules and
 * renders it. Whoever answers on the seam is outside this tool, so its answer is checked here, where
 * it comes back: shape, then rules (`INVALID_ANSWER`). Never throws (see {@link runAskUserQuestion}).
 */
export function executeAskUserQuestion(args: unknown, ctx: ToolContext): Promise<ToolResult> {
  return runAskUserQuestion(args, ctx.limits, (input) => askThroughSeam(input, ctx))
}

async function askThroughSeam(input: ValidatedAsk, ctx: ToolContext): Promise<CheckedAnswer> {
  const given: unknown = await ctx.interaction.ask({
    questions: input.questions.map(toUserQuestion),
    ...(ctx.agent !== undefined ? { agent: ctx.agent } : {}),
    ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
  })
  const parsed = AskAnswerSchema.safeParse(given)
  if (!parsed.success) {
    throw new AskUserError('INVALID_ANSWER', 'the answer given is not of the shape {answers:[{id, selected, custom?}]}')
  }
  const check = acceptAnswer(input.questions, parsed.data)
  if (!check.ok) {
    throw new AskUserError(
      'INVALID_ANSWER',
      `the answer given breaks the answer rules: ${check.violations.map((v) => v.message).join('; ')}`,
    )
  }
  return check.answer
}

/** Builds the tool definition (a fresh object with its own schema copy). */
export function createAskUserQuestionTool(): AskUserQuestionTool {
  return {
    name: TOOL_NAME,
    title: TOOL_TITLE,
    description: TOOL_DESCRIPTION,
    inputSchema: toolInputJsonSchema(),
    annotations: { ...TOOL_ANNOTATIONS },
    execute: executeAskUserQuestion,
  }
}
