import { AskUserClient, type AskUserClientOptions } from './client'
import { toToolQuestion } from './question-mapping'
import { createAskUserQuestionTool, executeAskUserQuestion, type AskUserQuestionTool, type ToolContext } from './tool-definition'
import type { ToolResult } from './tool-result'
import { UserInteraction, type UserInteractionProvider } from './user-interaction'
import { validateAsk } from './validated-ask'
import { UNCAPPED_LIMITS } from '../shared/limits'

/** A seam provider backed by the companion, plus the client it uses. */
export interface CompanionProvider extends UserInteractionProvider {
  readonly client: AskUserClient
  /** Aborts pending asks and closes the connection. */
  close(): Promise<void>
}

/**
 * A provider for upstream's seam that asks through the companion. The seam is where its questions
 * come in (from whichever tool the host runs), so they are validated here, once: seam questions (camel
 * `multiSelect`) become tool questions (snake `multi_select`), with the seam's `detail` and `intent`
 * forwarded (in both eras), checked for shape and emptiness (`INVALID_ARGS`, also for a plan-review
 * `approve` that is not an option label; `EMPTY_QUESTIONS`; the companion owns the caps). The tool this
 * module binds to the seam takes the model's input, which never carries `detail` or `intent`. The request's `signal` aborts the
 * ask; the request's `agent.title` becomes the ask's title. Accepts client options or an existing client.
 */
export function createCompanionProvider(client: AskUserClientOptions | AskUserClient = {}): CompanionProvider {
  const owned = client instanceof AskUserClient ? client : new AskUserClient(client)
  return {
    client: owned,
    ask: async (request) =>
      owned.ask(validateAsk({ questions: request.questions.map(toToolQuestion) }), {
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
        ...(request.agent?.title !== undefined ? { title: request.agent.title } : {}),
      }),
    close: () => owned.close(),
  }
}

/** The tool bound to one seam: `ctx.interaction` defaults to that seam. */
export interface BoundAskUserQuestionTool extends Omit<AskUserQuestionTool, 'execute'> {
  execute(args: unknown, ctx?: Partial<ToolContext>): Promise<ToolResult>
}

/** What {@link registerAskUserCompanion} set up. */
export interface CompanionRegistration {
  tool: BoundAskUserQuestionTool
  interaction: UserInteraction
  provider: CompanionProvider
  /** Unregisters the provider and closes its client (pending asks fail with `ASK_ABORTED`). */
  dispose(): Promise<void>
}

/**
 * One call for a DeepSeek Harness-style host: registers a companion provider on `interaction` (a new
 * seam when absent) and returns the `ask_user_question` tool bound to it. Throws `DUPLICATE_PROVIDER`
 * when the seam already has a provider.
 */
export function registerAskUserCompanion(
  options: { interaction?: UserInteraction; client?: AskUserClientOptions | AskUserClient } = {},
): CompanionRegistration {
  const interaction = options.interaction ?? new UserInteraction()
  const provider = createCompanionProvider(options.client)
  const unregister = interaction.registerProvider(provider)
  const { name, description, inputSchema } = createAskUserQuestionTool()
  return {
    tool: {
      name,
      description,
      inputSchema,
      execute: (args, ctx = {}) => executeAskUserQuestion(args, { limits: UNCAPPED_LIMITS, ...ctx, interaction: ctx.interaction ?? interaction }),
    },
    interaction,
    provider,
    dispose: async () => {
      unregister()
      await provider.close()
    },
  }
}
