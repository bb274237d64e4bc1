import { claudeCodeHook } from './claude-code'
import { codexHook } from './codex'
import { geminiHook } from './gemini'
import { opencodeHook } from './opencode'
import type { HarnessName } from './harness-names'
import type { HookWork } from './plan'

export type { HarnessName } from './harness-names'

/** Where a hook event came from: stdin, or the last argument (Codex's notify). */
export type EventSource = 'stdin' | 'argument'

/** How each harness's event becomes work for the companion. Throws {@link HookInputError} for a malformed event. */
export const HARNESSES: Record<HarnessName, (event: unknown, from: EventSource) => HookWork> = {
  'claude-code': (event) => claudeCodeHook(event),
  codex: (event, from) => codexHook(event, from === 'argument' ? 'notify' : 'stdin'),
  gemini: (event) => geminiHook(event),
  opencode: (event) => opencodeHook(event),
}
