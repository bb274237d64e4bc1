/**
 * The harnesses `ask-user hook` speaks for. A module of its own, free of zod, so that the command can
 * check its argument before the mappings (harnesses.ts) load.
 */
export const HARNESS_NAMES = ['claude-code', 'codex', 'gemini', 'opencode'] as const

export type HarnessName = (typeof HARNESS_NAMES)[number]

export function isHarness(name: string): name is HarnessName {
  return (HARNESS_NAMES as readonly string[]).includes(name)
}
