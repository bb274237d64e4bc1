import type { ApprovalDecision } from '../../shared/approval'
import { AskUserError } from '../../shared/error-codes'
import { UNCAPPED_LIMITS } from '../../shared/limits'
import { validateAskInput } from '../../shared/validate-input'
import type { HookCompanion } from './companion'
import type { HookPlan } from '../../integrations/hook-work'

function isDismissal(error: unknown): boolean {
  return error instanceof AskUserError && error.code === 'ASK_CANCELLED'
}

/** What a hook run ends with: the exact stdout text (or none) and a one-line reason for stderr. */
export interface HookOutcome {
  stdout?: string
  note?: string
}

/**
 * Carries out one mapped event against the companion and returns what to print. Never throws: with
 * no companion, a dismissal, an abort or any error, the outcome has no stdout (the harness then asks
 * in its own way) and a note saying why; the one exception is a dismissed approval whose plan names
 * its `dismissed` stdout.
 */
export async function runHookPlan(
  plan: HookPlan,
  companion: () => HookCompanion,
  signal: AbortSignal,
): Promise<HookOutcome> {
  if (plan.kind === 'pass') return { note: plan.reason }
  let open: HookCompanion | undefined
  try {
    open = companion()
    switch (plan.kind) {
      case 'notice':
        await open.notify(plan.notice)
        return {}
      case 'approve': {
        let decision: ApprovalDecision
        try {
          decision = await open.approve(plan.request, { signal })
        } catch (error) {
          // A dismissal means "let the terminal decide"; some harnesses need to be told so.
          if (plan.dismissed !== undefined && isDismissal(error)) return { stdout: plan.dismissed }
          throw error
        }
        const stdout = plan.output(decision)
        return stdout === undefined
          ? { note: `the person chose ${decision.behavior}; nothing to print for this harness` }
          : { stdout }
      }
      case 'ask': {
        const checked = validateAskInput({ questions: plan.questions }, UNCAPPED_LIMITS)
        if (!checked.ok) return { note: checked.message }
        const stdout = plan.output(await open.ask(checked.value, { signal }))
        return stdout === undefined ? {} : { stdout }
      }
    }
    return {}
  } catch (error) {
    return { note: error instanceof Error ? error.message : String(error) }
  } finally {
    await open?.close().catch(() => undefined)
  }
}
