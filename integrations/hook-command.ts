import type { ConnectInfo } from '../shared/connect'
import { askUserLine, withCompanionEnv } from './command-line'
import type { HookHarnessId } from './ids'
import type { SetupStep } from './setup-steps'

/** A hook may wait this long for the person, in seconds (Claude's runs beside its own dialog). */
export const BESIDE_DIALOG_HOOK_TIMEOUT_SECONDS = 86_400
/** Codex and Gemini wait for the hook before they show their own prompt: ten minutes, then they ask. */
export const BLOCKING_HOOK_TIMEOUT_SECONDS = 600
/** A notice hook only hands a line over: it may take this long, in seconds. */
export const NOTICE_HOOK_TIMEOUT_SECONDS = 30

/**
 * The shell line a harness runs for `ask-user hook <harness>`: this install's absolute command, with
 * the companion's environment in front (POSIX `K=V cmd`, `set "K=V" && cmd` on Windows).
 */
export function hookCommand(harness: HookHarnessId, info: ConnectInfo): string {
  return withCompanionEnv(askUserLine(info, ['hook', harness]), info)
}

/**
 * One `hook` step: a `{matcher?, hooks:[{type:"command", command, timeout}]}` group in the settings'
 * `hooks.<event>` array, recognised as ours by its `ask-user … hook <harness>` command. `timeout` is
 * in the harness's own unit.
 */
export function hookStep(file: string, event: string, command: string, timeout: number, matcher?: string): SetupStep {
  return {
    kind: 'hook',
    file,
    event,
    ...(matcher !== undefined ? { matcher } : {}),
    handler: { type: 'command', command, timeout },
  }
}
