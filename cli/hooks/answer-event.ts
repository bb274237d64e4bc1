// The part of `ask-user hook` that needs zod and the companion client: map the event, carry out the
// plan. cli/commands/hook.ts imports it only once a companion may be running.
import { errorMessage } from '../../shared/describe-error'
import { hookCompanion } from './companion'
import type { EventSource } from '../../integrations/harness'
import type { HookHarnessId } from '../../integrations/ids'
import { hooksOf } from '../../integrations/index'
import type { HookWork } from '../../integrations/hook-work'
import { runHookPlan, type HookOutcome } from './run-hook'

/** Maps one parsed event of `harness` and carries it out against the companion `env` finds. Never throws. */
export async function answerHookEvent(
  harness: HookHarnessId,
  event: unknown,
  from: EventSource,
  env: NodeJS.ProcessEnv,
  connectTimeoutMs: number,
  signal: AbortSignal,
): Promise<HookOutcome> {
  let work: HookWork
  try {
    work = hooksOf(harness).map(event, from)
  } catch (error) {
    return { note: errorMessage(error) }
  }
  return runHookPlan(work.plan, () => hookCompanion(work.agent, env, connectTimeoutMs), signal)
}
