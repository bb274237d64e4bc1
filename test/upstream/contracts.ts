// Upstream's two seam contracts as ../shared/UPSTREAM.md writes them (seed era `ctx.userInteraction`
// from @deepseek-ai/dsh-user-interaction; 0.1.0-rc.8 `ctx.userQuestions` from
// @deepseek-ai/dsh-user-questions), with upstream's exact type shapes, checks, order and messages,
// and the one behaviour of its tool registry that matters here: only a HarnessError keeps name and
// code in the result's `error.info`. Compiled under upstream's strict options (tsconfig.json here).

/** Upstream's base error (`@deepseek-ai/dsh-llm`): a message and a stable code. */
export class HarnessError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'HarnessError'
  }
}

/** A live agent handle (`@deepseek-ai/dsh-agent`'s `Agent`: no `name`, no `title`). */
export interface Agent {
  readonly id: string
  readonly status: 'idle' | 'running'
  cancel(cause: string): void
}

export interface AskUserQuestionOption {
  label: string
  description?: string
}
export interface AskUserQuestionIntent {
  kind: 'plan-review'
  approve: string
}
export interface AskUserQuestionItem {
  id: string
  question: string
  detail?: string
  header?: string
  options?: AskUserQuestionOption[]
  multiSelect?: boolean
  intent?: AskUserQuestionIntent
}
export interface AskUserQuestionAnswerItem {
  id: string
  selected: string[]
  custom?: string
}
export interface AskUserQuestionAnswer {
  answers: AskUserQuestionAnswerItem[]
}
export interface AskUserQuestionRequest {
  questions: AskUserQuestionItem[]
  agent?: Agent
  signal?: AbortSignal
}
export interface Provider {
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>
}

/** One era: the seam's error class name and the provider messages it words differently. */
interface Era {
  errorName: string
  noun: string
}

function seamOf(era: Era) {
  class SeamError extends HarnessError {
    constructor(message: string, code: string, options?: ErrorOptions) {
      super(message, code, options)
      this.name = era.errorName
    }
  }
  class Service {
    private provider: Provider | undefined
    registerProvider(provider: Provider): () => void {
      if (this.provider !== undefined)
        throw new SeamError(`a ${era.noun} provider is already registered`, 'DUPLICATE_PROVIDER')
      this.provider = provider
      return () => {
        if (this.provider === provider) this.provider = undefined
      }
    }
    async ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
      if (request.signal?.aborted)
        throw new SeamError('ask_user_question was aborted before the user answered', 'ASK_ABORTED')
      if (request.questions.length === 0)
        throw new SeamError('ask_user_question requires at least one question', 'EMPTY_QUESTIONS')
      if (this.provider === undefined) throw new SeamError(`no ${era.noun} provider is registered`, 'NO_PROVIDER')
      return this.provider.ask(request)
    }
  }
  return { SeamError, Service }
}

/** Seed era: `UserInteractionService` (`ctx.userInteraction`) and `UserInteractionError`. */
export const seed = (() => {
  const { SeamError, Service } = seamOf({ errorName: 'UserInteractionError', noun: 'user-interaction' })
  return { UserInteractionError: SeamError, UserInteractionService: Service }
})()

/** rc.8: `UserQuestionService` (`ctx.userQuestions`) and `UserQuestionError`. */
export const rc8 = (() => {
  const { SeamError, Service } = seamOf({ errorName: 'UserQuestionError', noun: 'user-questions' })
  return { UserQuestionError: SeamError, UserQuestionService: Service }
})()

/** A tool result as upstream's registry builds one from a thrown error. */
export interface RegistryFailure {
  isError: true
  text: string
  error: { message: string; info?: { name: string; code: string } }
}

/** Upstream's registry: a HarnessError keeps `name` and `code` in `error.info`; any other error only its message. */
export function registryFailure(error: unknown): RegistryFailure {
  const message = error instanceof Error ? error.message : String(error)
  const info = error instanceof HarnessError ? { name: error.name, code: error.code } : undefined
  return { isError: true, text: `Error: ${message}`, error: { message, ...(info ? { info } : {}) } }
}

/** Upstream's tool: what it hands the seam for the model's arguments (`header`, `options`, `multi_select` only when present). */
export async function upstreamToolAsk(
  service: { ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> },
  args: {
    questions: {
      id: string
      question: string
      header?: string
      options?: AskUserQuestionOption[]
      multi_select?: boolean
    }[]
  },
  signal?: AbortSignal,
): Promise<{ ok: true; text: string } | RegistryFailure> {
  try {
    const result = await service.ask({
      questions: args.questions.map((q) => ({
        id: q.id,
        question: q.question,
        ...(q.header !== undefined ? { header: q.header } : {}),
        ...(q.options !== undefined ? { options: q.options } : {}),
        ...(q.multi_select !== undefined ? { multiSelect: q.multi_select } : {}),
      })),
      ...(signal !== undefined ? { signal } : {}),
    })
    return { ok: true, text: JSON.stringify({ answers: result.answers }) }
  } catch (error) {
    return registryFailure(error)
  }
}
