import type { AskAnswer } from '../shared/answer'
import { AskUserError } from '../shared/error-codes'

// The seam's types are written out as upstream's interfaces (not inferred from zod) so that they
// compile against upstream's own under its `exactOptionalPropertyTypes`.

/** One option of a question on the seam (same shape as the tool input). */
export interface UserQuestionOption {
  label: string
  description?: string | undefined
}

/**
 * What a question is for, as upstream's rc.8 seam: `{kind: 'plan-review', approve}` asks to approve
 * the plan in the question's `detail`, `approve` naming the option label that means "approved". Another
 * kind (a newer upstream) is ignored: the question shows as an ordinary one.
 */
export interface UserQuestionIntent {
  kind: string
  approve?: string
}

/**
 * One question on the seam. camelCase `multiSelect` here, snake_case `multi_select` in the tool
 * input; `header`, `options` and `multiSelect` are present only when the tool input had them.
 * `detail` (both eras: longer Markdown text) and `intent` (rc.8) come from the seam's callers (host
 * code), never from the model: the tool drops them from its input.
 */
export interface UserQuestion {
  id: string
  question: string
  detail?: string
  header?: string
  options?: UserQuestionOption[]
  multiSelect?: boolean
  intent?: UserQuestionIntent
}

/** Who is asking, when the host knows (shown to the person by providers that can). */
export interface UserInteractionAgent {
  name?: string
  title?: string
}

/**
 * What a provider is asked to answer. `signal` aborts the wait. `agent` is the host's handle on the
 * asking agent: upstream passes its live `Agent`, other hosts a {@link UserInteractionAgent}; a
 * string `title` on it becomes the ask's title.
 */
export interface UserInteractionRequest {
  questions: UserQuestion[]
  agent?: UserInteractionAgent | object
  signal?: AbortSignal
}

/** One answer on the seam: `custom` present only when the person wrote one (upstream's shape). */
export interface UserInteractionAnswerItem {
  id: string
  selected: string[]
  custom?: string
}

/** A provider's answer: one entry per question, in question order (upstream's shape). */
export interface UserInteractionAnswer {
  answers: UserInteractionAnswerItem[]
}

/**
 * Something that can put questions to a person: the companion client, a terminal prompt, a test fake.
 * It resolves with the answer or rejects with an {@link AskUserError} (`ASK_CANCELLED`, `ASK_ABORTED`,
 * `NO_PROVIDER`); it never invents an answer.
 */
export interface UserInteractionProvider {
  ask(request: UserInteractionRequest): Promise<UserInteractionAnswer>
}

/**
 * Any seam with upstream's two methods: ours ({@link UserInteraction}) or a host's, such as upstream's
 * `ctx.userQuestions` (rc.8) or `ctx.userInteraction` (seed era), which the tool and
 * `registerAskUserCompanion` then use as they are.
 */
export interface UserInteractionSeam {
  registerProvider(provider: UserInteractionProvider): () => void
  ask(request: UserInteractionRequest): Promise<unknown>
}

export const NO_PROVIDER_MESSAGE = 'nobody can answer ask_user_question: no user-interaction provider is registered'
export const DUPLICATE_PROVIDER_MESSAGE =
  'a user-interaction provider is already registered; dispose of it before registering another'
export const ASK_ABORTED_MESSAGE = 'ask_user_question was aborted before the person answered'
export const EMPTY_BATCH_MESSAGE = 'ask_user_question needs at least one question; the batch was empty'

/**
 * The seam between the `ask_user_question` tool and whoever answers it, as upstream's
 * `@deepseek-ai/dsh-user-interaction`: one provider at a time.
 */
export class UserInteraction {
  #provider: UserInteractionProvider | undefined

  /**
   * Registers the provider. Returns a disposer that unregisters it (idempotent; a stale disposer never
   * removes a later provider). Throws `DUPLICATE_PROVIDER` while another provider is registered.
   */
  registerProvider(provider: UserInteractionProvider): () => void {
    if (this.#provider !== undefined) throw new AskUserError('DUPLICATE_PROVIDER', DUPLICATE_PROVIDER_MESSAGE)
    this.#provider = provider
    return () => {
      if (this.#provider === provider) this.#provider = undefined
    }
  }

  /** True while a provider is registered. */
  get hasProvider(): boolean {
    return this.#provider !== undefined
  }

  /**
   * Asks the registered provider. Checks, in upstream's order: signal already aborted → `ASK_ABORTED`;
   * no questions → `EMPTY_QUESTIONS`; no provider → `NO_PROVIDER`; else the provider's answer or error.
   */
  async ask(request: UserInteractionRequest): Promise<AskAnswer> {
    if (request.signal?.aborted) throw new AskUserError('ASK_ABORTED', ASK_ABORTED_MESSAGE)
    if (request.questions.length === 0) throw new AskUserError('EMPTY_QUESTIONS', EMPTY_BATCH_MESSAGE)
    const provider = this.#provider
    if (provider === undefined) throw new AskUserError('NO_PROVIDER', NO_PROVIDER_MESSAGE)
    return provider.ask(request)
  }
}
