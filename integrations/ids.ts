// The one list of harness ids, free of zod and of the records, so that `ask-user hook` can check its
// argument before anything heavy loads (docs/performance.md, "Start-up of spawned commands").

/** Every harness ask-user supports, in the order the set-up help and the Connect panel list them. */
export const HARNESS_IDS = ['claude-code', 'codex', 'gemini', 'qwen', 'opencode', 'copilot', 'cursor'] as const
export type HarnessId = (typeof HARNESS_IDS)[number]

/**
 * The harnesses whose hooks `ask-user hook` answers. The registry's type requires a hook mapping in
 * exactly these records (integrations/index.ts), so this subset cannot drift from them.
 */
export const HOOK_HARNESS_IDS = [
  'claude-code',
  'codex',
  'gemini',
  'qwen',
  'opencode',
  'copilot',
] as const satisfies readonly HarnessId[]
export type HookHarnessId = (typeof HOOK_HARNESS_IDS)[number]

/** True for an id of {@link HARNESS_IDS}. */
export function isHarnessId(name: string): name is HarnessId {
  return (HARNESS_IDS as readonly string[]).includes(name)
}

/** True for an id of {@link HOOK_HARNESS_IDS}. */
export function isHookHarnessId(name: string): name is HookHarnessId {
  return (HOOK_HARNESS_IDS as readonly string[]).includes(name)
}
