// What the bridge tells the relay state (relay-state.ts) beyond its link changes: the roster this home holds,
// followed as `relay pair`, `relay remove` and renewals rewrite it, the agents' credential expiries that
// `relay add-agent` records, the "mirror local asks" setting, and each agent's last contact as the desk sees
// its questions and receipts. Loaded with the bridge, only when a relay is configured.
import { watch } from 'node:fs'
import { describeRelayError } from '../../relay/home/errors'
import { MIRROR_FILE, mirrorLocalAsks } from '../../relay/home/mirror-setting'
import { loadRenewals, RENEWALS_FILE } from '../../relay/home/state'
import { loadStoredRoster, STORED_ROSTER_FILE } from '../../relay/home/stored-roster'
import type { RelayDesk, RemoteAsk } from '../../relay/exchange'
import type { RelayStateBoard } from './relay-state'

/**
 * Shows the stored roster, the agents' credential expiries and the mirror setting now, and again after every
 * rewrite of any of those files, until `signal` aborts. A file that cannot be read is a warning; what was shown last stays.
 */
export function followStoredRoster(
  home: string,
  board: RelayStateBoard,
  signal: AbortSignal,
  warn: (message: string) => void,
): void {
  /** Re-reads one file in order (the last rewrite always wins) and shows what it says; `what` names it in a warning. */
  const follower = <T>(read: () => Promise<T>, show: (value: T) => void, what: string): (() => void) => {
    let reading = Promise.resolve()
    return () => {
      reading = reading
        .then(read)
        .then(show, (error: unknown) => warn(`the relay view could not read ${what}: ${describeRelayError(error)}`))
    }
  }
  const reload = follower(
    () => loadStoredRoster(home),
    (roster) => board.roster(roster),
    'the roster',
  )
  // A paired device has no renewals record: that reads as empty, so its agents show no expiry.
  const reloadExpiries = follower(
    () => loadRenewals(home),
    (renewals) =>
      board.agentCredentials(
        new Map(Object.entries(renewals.agents ?? {}).map(([id, agent]) => [id, agent.expiresAt])),
      ),
    "the agents' credential expiries",
  )
  const reloadMirror = follower(
    () => mirrorLocalAsks(home),
    (on) => board.mirrorLocalAsks(on),
    'the mirror setting',
  )
  reload()
  reloadExpiries()
  reloadMirror()
  try {
    // The files are replaced by an atomic rename, so the home folder is watched, not the files.
    const watcher = watch(home, { signal, persistent: false }, (_event, name) => {
      if (name === STORED_ROSTER_FILE) reload()
      if (name === RENEWALS_FILE) reloadExpiries()
      if (name === MIRROR_FILE) reloadMirror()
    })
    watcher.on('error', (error) => warn(`the relay view stopped following the roster: ${String(error)}`))
  } catch (error) {
    warn(`the relay view will not follow roster changes until the next start: ${String(error)}`)
  }
}

/**
 * Records each agent's last contact: every question the desk lists and the receipt that settles it. (A key's
 * agent token is the agent's credential name, not its roster id, so a receipt is matched through its question.)
 */
export function followAgentContact(desk: RelayDesk, board: RelayStateBoard, signal: AbortSignal): void {
  const askedBy = new Map<string, string>()
  const asked = (remote: RemoteAsk): void => {
    askedBy.set(remote.key, remote.agent.id)
    board.contact(remote.agent.id)
  }
  for (const remote of desk.pending()) asked(remote)
  const offAdded = desk.onAdded(asked)
  const offSettled = desk.onSettled((settled) => {
    const agentId = askedBy.get(settled.key)
    askedBy.delete(settled.key)
    // `expired` may be this desk's own clock passing the ask's expiry: not a sign of the agent.
    if (agentId !== undefined && settled.outcome !== 'expired') board.contact(agentId)
  })
  signal.addEventListener('abort', () => {
    offAdded()
    offSettled()
  })
}
