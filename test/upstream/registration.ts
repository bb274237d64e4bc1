// The registration examples of docs/integrations.md, one per upstream era, as host code would write
// them. Compiled under upstream's strict options (tsconfig.json here) and run by
// test/unit/agent/upstream-seams.test.ts.
import { createCompanionProvider, registerAskUserCompanion, type AskUserClientOptions } from '../../agent'
import { rc8, seed, type Provider } from './contracts'

/** A host context of the rc.8 era: the seam is `ctx.userQuestions`. */
export interface Rc8Context {
  userQuestions: InstanceType<typeof rc8.UserQuestionService>
}
/** A host context of the seed era: the seam is `ctx.userInteraction`. */
export interface SeedContext {
  userInteraction: InstanceType<typeof seed.UserInteractionService>
}

/** rc.8: upstream's own tool stays registered; the companion answers as the seam's provider. */
export function registerOnRc8(ctx: Rc8Context, client: AskUserClientOptions): () => void {
  const provider = createCompanionProvider(client, { hostError: rc8.UserQuestionError })
  return ctx.userQuestions.registerProvider(provider)
}

/** Seed era: the same, on `ctx.userInteraction` with its error class. */
export function registerOnSeed(ctx: SeedContext, client: AskUserClientOptions): () => void {
  return ctx.userInteraction.registerProvider(createCompanionProvider(client, { hostError: seed.UserInteractionError }))
}

/** A host without upstream's tool: our tool bound to the host's seam (errors keep the seam's codes). */
export function registerToolOnRc8(ctx: Rc8Context, client: AskUserClientOptions) {
  return registerAskUserCompanion({ interaction: ctx.userQuestions, client, hostError: rc8.UserQuestionError })
}

// A companion provider is an upstream provider, as a type.
export const asUpstreamProvider: (client: AskUserClientOptions) => Provider = (client) =>
  createCompanionProvider(client)
