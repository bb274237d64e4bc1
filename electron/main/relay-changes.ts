// The Relay view's changes in the desktop window (mirroring, remote passwords, removing a device), applied
// in main through the very relay/home functions `ask-user relay mirror|passwords|remove` run. The running
// companion follows each from the files they write (the relay state feed, the passwords watcher), so the
// window sees the change in the next `relay/state`. The relay code is imported only when a change comes:
// a desktop without a relay never loads it.
import type { RelayChange } from '../../shared/ipc'

/** How one change ended: applied, or refused with a stable code and a sentence that says what to do. */
export type RelayChangeOutcome = { ok: true } | { ok: false; code: string; message: string }

const STABLE_CODE = /^[A-Z][A-Z0-9_]+$/

/**
 * Applies `change` in the companion's `home` (the first desktop's, for mirroring and removal; any desk's,
 * for remote passwords). Never throws: every failure becomes an outcome. An error without a stable code
 * while removing a device is the relay's connection failing: `RELAY_UNREACHABLE`; any other is
 * `RELAY_CHANGE_FAILED`.
 */
export async function applyRelayChange(
  home: string,
  change: RelayChange,
  now: () => number = Date.now,
): Promise<RelayChangeOutcome> {
  try {
    switch (change.type) {
      case 'relay/mirror-local': {
        const { setMirrorLocalAsks } = await import('../../relay/home/mirror-setting')
        await setMirrorLocalAsks(home, change.on)
        break
      }
      case 'relay/remote-passwords': {
        const { setRemotePasswords } = await import('../../relay/home/remote-passwords')
        await setRemotePasswords(
          home,
          change.agent,
          change.allow,
          now,
          change.on === undefined ? undefined : { name: change.on },
        )
        break
      }
      case 'devices/remove': {
        const { removeMember } = await import('../../relay/home/remove-member')
        await removeMember(home, change.name, now)
        break
      }
    }
    return { ok: true }
  } catch (error) {
    // Removing a device and a phone's password setting (its sealed record) are written on the relay.
    const reachesRelay = change.type !== 'relay/mirror-local'
    return refusalOf(error, reachesRelay)
  }
}

function refusalOf(error: unknown, reachesRelay: boolean): RelayChangeOutcome {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && STABLE_CODE.test(code))
    return { ok: false, code, message: message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message }
  if (reachesRelay)
    return {
      ok: false,
      code: 'RELAY_UNREACHABLE',
      message: `The relay could not be reached (${message}); nothing was changed. Check that it runs, then try again.`,
    }
  return { ok: false, code: 'RELAY_CHANGE_FAILED', message: `The change failed (${message}); nothing was changed.` }
}
