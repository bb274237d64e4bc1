// `ask-user relay devices` and `ask-user relay remove NAME`: the roster as this machine holds it,
// verified against the pinned root key, and a member's removal (re-signed, published).
import { loadRootKeys, renewRoster, verifyRoster, type Roster } from '../../relay/crypto'
import { openDesktopLink, publishRoster } from '../../relay/home/desktop-link'
import { pushSectionForMembers } from '../../relay/home/push-roster'
import { RelayCliError } from './errors'
import { pushRevocations } from './revoke'
import {
  loadRenewals,
  loadRosterAndSettings,
  RenewalsSchema,
  RENEWALS_FILE,
  saveJson,
  saveRoster,
} from '../../relay/home/state'
import type { DesktopLink } from '../../relay/home/desktop-link'

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

/**
 * Removes the member called `name` on the first desktop: roster version + 1 without it, published to
 * the relay first and stored after, so a failed publish changes nothing. Agents and devices refuse the
 * removed member's answers from the moment they read that roster. Then revokes its NATS user when this
 * desktop minted it (`credentialRevoked`; false for agents and when the push failed). Throws `RELAY_NO_SUCH_MEMBER`,
 * `RELAY_CANNOT_REMOVE_DESKTOP`, or the desktop link's codes.
 */
export async function removeMember(
  home: string,
  name: string,
  now: () => number = Date.now,
): Promise<{ rosterVersion: number; credentialRevoked: boolean }> {
  const link = await openDesktopLink(home, now)
  try {
    const current = await verifyRoster(link.roster.bytes, link.roster.signature, link.settings.rootPublicKey, {
      highestSeenVersion: 0,
      now: now(),
    })
    const member = current.members.find((candidate) => candidate.name === name)
    if (member === undefined)
      throw new RelayCliError(
        'RELAY_NO_SUCH_MEMBER',
        `The roster lists no member called "${name}"; run \`ask-user relay devices\` for the names.`,
      )
    if (member.id === link.desktop.member.id) {
      throw new RelayCliError(
        'RELAY_CANNOT_REMOVE_DESKTOP',
        'This desktop holds the root key and cannot remove itself; remove other devices, or start a new relay.',
      )
    }
    const members = current.members.filter((candidate) => candidate.id !== member.id)
    const next = await renewRoster(await loadRootKeys(link.root), current, {
      now: now(),
      members,
      // Re-sealed without the removed device's subscription (and without its key, for an agent).
      push: await pushSectionForMembers(home, current, members),
    })
    await publishRoster(link, next)
    await saveRoster(home, next)
    return { rosterVersion: next.roster.version, credentialRevoked: await revokeCredential(home, link, member.id, now) }
  } finally {
    await link.nc.close()
  }
}

// The roster change already stands; a failed push leaves the credential to lapse within 7 days.
async function revokeCredential(
  home: string,
  link: DesktopLink,
  memberId: string,
  now: () => number,
): Promise<boolean> {
  const renewals = await loadRenewals(home)
  const device = renewals.devices[memberId]
  if (device === undefined) return false
  const revoked = { ...renewals.revoked, [device.nkey]: Math.floor(now() / 1000) }
  const pushed = await pushRevocations(home, link.url, link.keys, revoked).catch(() => false)
  if (pushed) {
    delete renewals.devices[memberId]
    await saveJson(home, RENEWALS_FILE, RenewalsSchema, { ...renewals, revoked })
  }
  return pushed
}
