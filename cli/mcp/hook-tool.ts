// The hook tool of `ask-user mcp --claude-code-hooks`: Claude Code's `mcp_tool` hooks call it with the
// event's fields (integrations/claude-code/hook-tool.ts), and it does what `ask-user hook claude-code`
// does, inside the server Claude already runs: map the event, ask the person, answer with the exact
// JSON the command hook would print (or nothing, so that Claude asks in its own way).
import { claudeCode } from '../../integrations/claude-code'
import {
  calledByModel,
  eventFromHookTool,
  HookToolArgumentsSchema,
  hookToolInputSchema,
  markAskedByModel,
} from '../../integrations/claude-code/hook-tool'
import { HOOK_TOOL_NAME } from '../../integrations/claude-code/hook-tool-names'
import type { HookWork } from '../../integrations/hook-work'
import { errorMessage } from '../../shared/describe-error'
import { hookCompanion } from '../hooks/companion'
import { runHookPlan } from '../hooks/run-hook'

/** The hook tool as `tools/list` shows it. */
export const HOOK_TOOL_DEFINITION = {
  name: HOOK_TOOL_NAME,
  title: 'Claude Code hook',
  description: 'Called by Claude Code hooks (set up by `ask-user setup claude-code --hooks`), not by the model.',
  inputSchema: hookToolInputSchema(),
}

/** One call's text result (empty: no decision, Claude asks in its own way); `note` says why not. */
export interface HookToolResult {
  content: [{ type: 'text'; text: string }]
  note?: string
}

/** How long connecting to the companion may take before Claude is left to ask by itself. */
const CONNECT_TIMEOUT_MS = 3_000

/**
 * Answers one call of the hook tool, as `ask-user hook claude-code` answers one event: never throws;
 * with no companion, a dismissal or any error the text is empty and `note` says why. A call that
 * carries the model's `_meta` is shown as {@link markAskedByModel} says.
 */
export async function answerHookTool(
  args: unknown,
  meta: Record<string, unknown> | undefined,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<HookToolResult> {
  const empty = (note: string): HookToolResult => ({ content: [{ type: 'text', text: '' }], note })
  let work: HookWork
  try {
    const event = eventFromHookTool(HookToolArgumentsSchema.parse(args))
    work = claudeCode.hooks.map(event)
  } catch (error) {
    return empty(errorMessage(error))
  }
  if (calledByModel(meta)) work = markAskedByModel(work)
  const { agent } = work
  const outcome = await runHookPlan(work.plan, () => hookCompanion(agent, env, CONNECT_TIMEOUT_MS), signal)
  return {
    content: [{ type: 'text', text: outcome.stdout ?? '' }],
    ...(outcome.note !== undefined ? { note: outcome.note } : {}),
  }
}
