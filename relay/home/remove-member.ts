// Removing a member from the roster on the first desktop: `ask-user relay remove NAME` and the Electron
// window's "Remove" (electron/main/relay-changes.ts) both run this one function.
import type { Member, Roster } from '../crypto'
import type { RelayKeys } from '../nats/keys-file'
import { pushPersonAccount, serverRevocations } from './account-push'
import { syncDeskRecords } from './desk-records-sync'
import { CLI_SERVER_CHECKS, openDesktopLink, type DesktopLink } from './desktop-link'
import { publishRosterChange } from './roster-change'
import { RelayHomeError } from './errors'
import { pushSectionForMembers } from './push-roster'
import { loadRenewals, RenewalsSchema, RENEWALS_FILE, saveJson } from './state'

/**
 * Removes the member called `name` on the first desktop: roster version + 1 without it, published to
 * the relay first and stored after, so a failed publish changes nothing. Agents and devices refuse the
 * removed member's answers from the moment they read that roster. Then revokes its NATS user when this
 * desktop minted it (`credentialRevoked`; false for agents and when the push failed). Throws `RELAY_NO_SUCH_MEMBER`,
 * `RELAY_CANNOT_REMOVE_DESKTOP`, `RELAY_ROSTER_CONFLICT`, or the desktop link's codes and connection errors.
 */
export async function removeMember(
  home: string,
  name: string,
  now: () => number = Date.now,
): Promise<{ rosterVersion: number; credentialRevoked: boolean }> {
  const link = await openDesktopLink(home, now)
  try {
    let removed: Member | undefined
    // Applied again on top of another desktop's change published meanwhile (roster-change.ts).
    const next = await publishRosterChange(link, home, now, async (current) => {
      const member = current.members.find((candidate) => candidate.name === name)
      if (member === undefined)
        throw new RelayHomeError(
          'RELAY_NO_SUCH_MEMBER',
          `The roster lists no member called "${name}"; run \`ask-user relay devices\` for the names.`,
        )
      if (member.id === link.desktop.member.id) {
        throw new RelayHomeError(
          'RELAY_CANNOT_REMOVE_DESKTOP',
          'This desktop cannot remove itself; remove it from another desktop, or remove other devices here.',
        )
      }
      removed = member
      const members = current.members.filter((candidate) => candidate.id !== member.id)
      // Re-sealed without the removed device's subscription (and without its key, for an agent).
      return { members, push: await pushSectionForMembers(home, current, members) }
    })
    return {
      rosterVersion: next.roster.version,
      credentialRevoked: await revokeCredential(home, link, next.roster, removed!.id, now),
    }
  } finally {
    await link.nc.close()
  }
}

/**
 * Pushes the person's account JWT with `revocations` (user public key → seconds since the epoch; every
 * JWT of that user issued up to then is refused) and records the push in `home`. Resolves true when the
 * server says it took it; the server closes that user's live connections then (RELAY.md §3.2).
 */
export async function pushRevocations(
  home: string,
  url: string,
  keys: RelayKeys,
  revocations: Record<string, number>,
): Promise<boolean> {
  return pushPersonAccount(home, url, keys, revocations, { server: CLI_SERVER_CHECKS })
}

// The roster change already stands; a failed push leaves the credential to lapse within 7 days. The
// device may have been paired on another desktop, so the shared records are read first (its nkey); the
// push carries every revocation known here, there and on the server, so no desktop lifts another's.
async function revokeCredential(
  home: string,
  link: DesktopLink,
  roster: Roster,
  memberId: string,
  now: () => number,
): Promise<boolean> {
  await syncDeskRecords(link, home, roster).catch(() => undefined)
  const renewals = await loadRenewals(home)
  const device = renewals.devices[memberId]
  if (device === undefined) return false
  const revoked = { ...renewals.revoked, [device.nkey]: Math.floor(now() / 1000) }
  const onServer = await serverRevocations(link.url, link.keys, CLI_SERVER_CHECKS).catch(() => ({}))
  for (const [user, at] of Object.entries(onServer)) revoked[user] = Math.max(at, revoked[user] ?? 0)
  const pushed = await pushRevocations(home, link.url, link.keys, revoked).catch(() => false)
  if (pushed) {
    delete renewals.devices[memberId]
    await saveJson(home, RENEWALS_FILE, RenewalsSchema, { ...renewals, revoked })
    await syncDeskRecords(link, home, roster).catch(() => undefined)
  }
  return pushed
}
