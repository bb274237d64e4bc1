// The registry: every harness's record, in the order of HARNESS_IDS. `ask-user setup`, `ask-user
// hook`, the Connect panel and the help texts read this, never a list of their own.
import { claudeCode } from './claude-code'
import { codex } from './codex'
import { copilot } from './copilot'
import { cursor } from './cursor'
import { gemini } from './gemini'
import type { Harness, HookSupport, PublishedClient } from './harness'
import { HARNESS_IDS, type HarnessId, type HookHarnessId } from './ids'
import { opencode } from './opencode'
import { qwen } from './qwen'

/** The records as written, by id: the one place a new record is added (the type below checks it). */
const RECORDS = { 'claude-code': claudeCode, codex, gemini, qwen, opencode, copilot, cursor } as const

/**
 * The Connect notes' i18n keys, as the records name them: the renderer passes them to its `t(key)`,
 * so a record naming a key that the messages lack does not compile.
 */
export type ConnectNoteKey = (typeof RECORDS)[keyof typeof RECORDS]['connectNote']

/**
 * A registered record: its key is its id, its note key is literal, it has hooks exactly when ids.ts
 * says so, and it names its published CLI unless it is Cursor (not on npm).
 */
export type RegisteredHarness = Harness & { connectNote: ConnectNoteKey }
type Registered<Id extends HarnessId> = RegisteredHarness & { id: Id } & (Id extends HookHarnessId
    ? { hooks: HookSupport }
    : { hooks?: undefined }) &
  (Id extends 'cursor' ? { published?: undefined } : { published: PublishedClient })

/** Every harness by id. The type checks each record against HARNESS_IDS and HOOK_HARNESS_IDS. */
export const HARNESS_BY_ID: { readonly [Id in HarnessId]: Registered<Id> } = RECORDS

/** Every harness, in the order of HARNESS_IDS (the order the help text and the Connect panel use). */
export const HARNESSES: readonly RegisteredHarness[] = HARNESS_IDS.map((id) => HARNESS_BY_ID[id])

/** The hook support of a harness that has hooks. */
export function hooksOf(id: HookHarnessId): HookSupport {
  return HARNESS_BY_ID[id].hooks
}

/** The harnesses whose agent's commands get an environment setting (`ask-user setup <id> --askpass`). */
export const ASKPASS_HARNESSES: readonly (RegisteredHarness & { askpass: NonNullable<Harness['askpass']> })[] =
  HARNESSES.filter(
    (harness): harness is RegisteredHarness & { askpass: NonNullable<Harness['askpass']> } =>
      harness.askpass !== undefined,
  )
