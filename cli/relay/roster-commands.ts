// `ask-user relay devices`: the roster as this machine holds it, verified against the pinned root key, with
// when each member was added and renewed. (`relay remove` runs relay/home/remove-member.ts.)
import { verifyRoster, type Roster } from '../../relay/crypto'
import { loadRenewals, loadRosterAndSettings } from '../../relay/home/state'

/** One row of `relay devices`. Times are ms since the epoch, or undefined when not recorded. */
export interface RosterRow {
  name: string
  role: string
  id: string
  addedAt?: number
  renewedAt?: number
}

/**
 * The roster stored in `home` after verifying it against the pinned root key (`ROSTER_*` otherwise),
 * with when each member was added and when its credential was last renewed (known on the first desktop).
 */
export async function listRoster(
  home: string,
  now: () => number = Date.now,
): Promise<{ roster: Roster; rows: RosterRow[] }> {
  const { roster: stored, settings } = await loadRosterAndSettings(home)
  const roster = await verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, {
    highestSeenVersion: 0,
    now: now(),
  })
  const renewals = await loadRenewals(home)
  const rows = roster.members.map((member) => ({
    name: member.name,
    role: member.role,
    id: member.id,
    ...(member.addedAt === undefined ? {} : { addedAt: member.addedAt }),
    ...(renewals.devices[member.id] === undefined ? {} : { renewedAt: renewals.devices[member.id]!.renewedAt }),
  }))
  return { roster, rows }
}
