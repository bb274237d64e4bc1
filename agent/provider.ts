import { AskUserClient, type AskUserClientOptions } from './client'
import { toHostError, type HostErrorClass } from './host-errors'
import { agentTitle, toSeamAnswer, toToolQuestion } from './question-mapping'
import {
  createAskUserQuestionTool,
  executeAskUserQuestion,
  type AskUserQuestionTool,
  type ToolContext,
} from './tool-definition'
import type { ToolResult } from './tool-result'
import { UserInteraction, type UserInteractionProvider, type UserInteractionSeam } from './user-interaction'
import { validateAsk } from './validated-ask'
import { UNCAPPED_LIMITS } from '../shared/limits'

/** A seam provider backed by the companion, plus the client it uses. */
export interface CompanionProvider extends UserInteractionProvider {
  readonly client: AskUserClient
  /** Aborts pending asks and closes the connection. */
  close(): Promise<void>
}

/** How the provider raises its errors to the host. */
export interface ProviderOptions {
  /**
   * The host seam's error class (upstream: `UserQuestionError` from `@deepseek-ai/dsh-user-questions`,
   * or the seed era's `UserInteractionError`). Given, every error is raised as one of those with our
   * code (`ASK_CANCELLED`, `ASK_ABORTED`, `NO_PROVIDER`, `INVALID_ARGS`, …), which upstream's tool
   * registry carries into the result; absent, errors are our {@link AskUserError}s.
   */
  hostError?: HostErrorClass
}

/**
 * A provider for upstream's seam that asks through the companion. The seam is where its questions
 * come in (from whichever tool the host runs), so they are validated here, once: seam questions (camel
 * `multiSelect`) become tool questions (snake `multi_select`), with the seam's `detail` and `intent`
 * forwarded (in both eras), checked for shape and emptiness (`INVALID_ARGS`, also for a plan-review
 * `approve` that is not an option label; `EMPTY_QUESTIONS`; the companion owns the caps). The tool this
 * module binds to the seam takes the model's input, which never carries `detail` or `intent`. The
 * request's `signal` aborts the ask; the request's `agent.title` becomes the ask's title. Accepts client
 * options or an existing client, and `options.hostError` to raise errors as the host's class.
 */
export function createCompanionProvider(
  client: AskUserClientOptions | AskUserClient = {},
  options: ProviderOptions = {},
): CompanionProvider {
  const owned = client instanceof AskUserClient ? client : new AskUserClient(client)
  return {
    client: owned,
    ask: async (request) => {
      const title = agentTitle(request.agent)
      try {
        const answer = await owned.ask(validateAsk({ questions: request.questions.map(toToolQuestion) }), {
          ...(request.signal !== undefined ? { signal: request.signal } : {}),
          ...(title !== undefined ? { title } : {}),
        })
        return toSeamAnswer(answer)
      } catch (error) {
        throw toHostError(error, options.hostError)
      }
    },
    close: () => owned.close(),
  }
}

/** The tool bound to one seam: `ctx.interaction` defaults to that seam. */
export interface BoundAskUserQuestionTool extends Omit<AskUserQuestionTool, 'execute'> {
  execute(args: unknown, ctx?: Partial<ToolContext>): Promise<ToolResult>
}

/** What {@link registerAskUserCompanion} set up, on seam `S` (ours by default). */
export interface CompanionRegistration<S extends UserInteractionSeam = UserInteraction> {
  tool: BoundAskUserQuestionTool
  interaction: S
  provider: CompanionProvider
  /** Unregisters the provider and closes its client (pending asks fail with `ASK_ABORTED`). */
  dispose(): Promise<void>
}

/** What {@link registerAskUserCompanion} takes: the seam to register on, the client, the error class. */
export type RegistrationOptions<S extends UserInteractionSeam> = {
  interaction?: S
  client?: AskUserClientOptions | AskUserClient
} & ProviderOptions

/**
 * One call for a DeepSeek Harness-style host: registers a companion provider on `interaction` (ours,
 * or the host's `ctx.userQuestions` / `ctx.userInteraction`; a new seam when absent) and returns the
 * `ask_user_question` tool bound to it. `hostError` as in {@link createCompanionProvider}. Throws
 * `DUPLICATE_PROVIDER` (the seam's own error) when the seam already has a provider.
 */
export function registerAskUserCompanion<S extends UserInteractionSeam>(
  options: RegistrationOptions<S> & { interaction: S },
): CompanionRegistration<S>
export function registerAskUserCompanion(options?: RegistrationOptions<UserInteraction>): CompanionRegistration
export function registerAskUserCompanion(
  options: RegistrationOptions<UserInteractionSeam> = {},
): CompanionRegistration<UserInteractionSeam> {
  const interaction = options.interaction ?? new UserInteraction()
  const provider = createCompanionProvider(
    options.client,
    options.hostError !== undefined ? { hostError: options.hostError } : {},
  )
  const unregister = interaction.registerProvider(provider)
  const { execute: _unbound, ...definition } = createAskUserQuestionTool()
  return {
    tool: {
      ...definition,
      execute: (args, ctx = {}) =>
        executeAskUserQuestion(args, { limits: UNCAPPED_LIMITS, ...ctx, interaction: ctx.interaction ?? interaction }),
    },
    interaction,
    provider,
    dispose: async () => {
      unregister()
      await provider.close()
    },
  }
}
