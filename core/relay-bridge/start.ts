// The companion's one entry to the relay: a cheap look for the relay's settings file in the home, and
// only then the dynamic import of the bridge (and with it relay/ and the NATS client). A companion
// without a relay starts exactly as before: none of that code is loaded.
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Limits } from '../../shared/limits'
import type { NoticeBoard } from '../notice-board'
import type { Registry } from '../registry'
import type { RelayStateBoard } from './relay-state'

/**
 * The file every relay home holds (relay/home/state.ts `RELAY_FILES.settings`; a test keeps the two
 * equal). Named here so that looking for it loads nothing of the relay.
 */
export const RELAY_SETTINGS_FILE = 'relay-settings.json'

/** What the bridge needs of the companion. */
export interface RelayBridgeContext {
  home: string
  registry: Registry
  notices: NoticeBoard
  /** The companion's caps: a remote ask is held to them as a local agent's is. */
  limits: Limits
  /** What the windows' "Relay" view shows; the bridge feeds it. */
  relayState: RelayStateBoard
  warn: (message: string) => void
  now: () => number
}

/** A started bridge, or the stand-in when no relay is configured. */
export interface RelayBridgeHandle {
  /** Resolves once the desk watches the relay, or the bridge gave up or was not needed. Never rejects. */
  readonly ready: Promise<void>
  /** Stops the bridge (idempotent; resolves when its link is closed). */
  close(): Promise<void>
}

/** True when `home` holds a relay (`relay init` or `relay join` ran there). */
export async function relayConfigured(home: string): Promise<boolean> {
  return lstat(join(home, RELAY_SETTINGS_FILE)).then(
    () => true,
    () => false,
  )
}

/**
 * Starts the relay bridge when `ctx.home` has a relay configured; returns at once (the bridge renews,
 * connects and watches in the background, through outages). Never throws: a failure is a warning
 * and a notice in the windows.
 */
export function startRelayBridge(ctx: RelayBridgeContext): RelayBridgeHandle {
  let bridge: { close(): Promise<void> } | undefined
  let closed = false
  const ready = (async () => {
    if (!(await relayConfigured(ctx.home))) return
    ctx.relayState.configured()
    const { RelayBridge } = await import('./bridge')
    if (closed) return
    const started = RelayBridge.start(ctx)
    bridge = started.bridge
    await started.ready
  })().catch((error: unknown) => {
    const message = `the relay bridge could not start: ${String(error)}`
    ctx.warn(message)
    ctx.relayState.stopped(message)
  })
  return {
    ready,
    close: async () => {
      closed = true
      await bridge?.close()
    },
  }
}
