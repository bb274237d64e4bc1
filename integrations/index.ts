// The registry: every harness's record, in the order of HARNESS_IDS. `ask-user setup`, `ask-user
// hook`, the Connect panel and the help texts read this, never a list of their own.
import { claudeCode } from './claude-code'
import { codex } from './codex'
import { cursor } from './cursor'
import { gemini } from './gemini'
import type { Harness, HookSupport } from './harness'
import { HARNESS_IDS, type HarnessId, type HookHarnessId } from './ids'
import { opencode } from './opencode'
import { qwen } from './qwen'

/** A record as the registry holds it: its id is its key, and it has hooks exactly when ids.ts says so. */
type Registered<Id extends HarnessId> = Harness & { id: Id } & (Id extends HookHarnessId ? { hooks: HookSupport } : { hooks?: undefined })

/** Every harness by id. The type checks each record against HARNESS_IDS and HOOK_HARNESS_IDS. */
export const HARNESS_BY_ID: { readonly [Id in HarnessId]: Registered<Id> } = {
  'claude-code': claudeCode,
  codex,
  gemini,
  qwen,
  opencode,
  cursor,
}

/** Every harness, in the order of HARNESS_IDS (the order the help text and the Connect panel use). */
export const HARNESSES: readonly Harness[] = HARNESS_IDS.map((id) => HARNESS_BY_ID[id])

/** The hook support of a harness that has hooks. */
export function hooksOf(id: HookHarnessId): HookSupport {
  return HARNESS_BY_ID[id].hooks
}

/** The harnesses whose agent's commands get an environment setting (`ask-user setup <id> --askpass`). */
export const ASKPASS_HARNESSES: readonly (Harness & { askpass: NonNullable<Harness['askpass']> })[] = HARNESSES.filter(
  (harness): harness is Harness & { askpass: NonNullable<Harness['askpass']> } => harness.askpass !== undefined,
)
