// `ask-user relay devices` and `ask-user relay remove NAME`: the roster as this machine holds it,
// verified against the pinned root key, and a member's removal (re-signed, published).
import { loadRootKeys, renewRoster, verifyRoster, type Roster } from '../../relay/crypto'
import { BUCKETS } from '../../relay/nats/templates'
import { putEntry } from '../../relay/pairing'
import { openDesktopLink, rosterRecord } from './desktop-link'
import { RelayCliError } from './errors'
import { loadRenewals, loadRosterAndSettings, saveRoster } from './state'

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
export async function listRoster(home: string, now: () => number = Date.now): Promise<{ roster: Roster; rows: RosterRow[] }> {
  const { roster: stored, settings } = await loadRosterAndSettings(home)
  const roster = await verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, { highestSeenVersion: 0, now: now() })
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

/**
 * Removes the member called `name` on the first desktop: roster version + 1 without it, published to
 * the relay first and stored after, so a failed publish changes nothing. Agents and devices refuse the
 * removed member's answers from the moment they read that roster. Throws `RELAY_NO_SUCH_MEMBER`,
 * `RELAY_CANNOT_REMOVE_DESKTOP`, or the desktop link's codes.
 */
export async function removeMember(home: string, name: string, now: () => number = Date.now): Promise<{ rosterVersion: number }> {
  const link = await openDesktopLink(home, now)
  try {
    const current = await verifyRoster(link.roster.bytes, link.roster.signature, link.settings.rootPublicKey, { highestSeenVersion: 0, now: now() })
    const member = current.members.find((candidate) => candidate.name === name)
    if (member === undefined) throw new RelayCliError('RELAY_NO_SUCH_MEMBER', `The roster lists no member called "${name}"; run \`ask-user relay devices\` for the names.`)
    if (member.id === link.desktop.member.id) {
      throw new RelayCliError('RELAY_CANNOT_REMOVE_DESKTOP', 'This desktop holds the root key and cannot remove itself; remove other devices, or start a new relay.')
    }
    const next = await renewRoster(await loadRootKeys(link.root), current, { now: now(), members: current.members.filter((candidate) => candidate.id !== member.id) })
    await putEntry(link.nc, BUCKETS.roster, 'current', rosterRecord(next))
    await saveRoster(home, next)
    return { rosterVersion: next.roster.version }
  } finally {
    await link.nc.close()
  }
}
