// One roster change by a desktop (pair, remove, renew), retried for the person when another desktop
// published first: the relay's newer roster is taken (only when the root key signed it), the change is
// applied again on top of it, signed again and published with a compare-and-set, so two desktops
// changing the roster at once both land instead of one being told to run its command again.
import {
  loadRootKeys,
  parseRosterRecord,
  renewRoster,
  verifyRosterSignature,
  type Member,
  type Roster,
  type RosterPush,
  type SignedRoster,
} from '../crypto'
import { BUCKETS } from '../nats/templates'
import { getEntry } from '../pairing'
import { publishRoster, type DesktopLink } from './desktop-link'
import { saveRoster } from './state'

/** How many times a change that met another desktop's change is applied again. */
export const ROSTER_CHANGE_TRIES = 5

/** What a change makes of the current roster: new members and/or a push section (as renewRoster takes them). */
export type RosterEdit = { members?: readonly Member[]; push?: RosterPush | undefined }

/**
 * Signs `edit(current)` as the next version of the roster `link` holds, publishes it and stores it in
 * `home`; on `RELAY_ROSTER_CONFLICT` takes the relay's newer root-signed roster into `link` (and `home`)
 * and tries again, at most {@link ROSTER_CHANGE_TRIES} times. `edit` may refuse (its error is passed on,
 * such as a name the other desktop took meanwhile). Resolves with the roster published. Throws the last
 * `RELAY_ROSTER_CONFLICT` when every try met another change, or the connection's error.
 */
export async function publishRosterChange(
  link: DesktopLink,
  home: string,
  now: () => number,
  edit: (current: Roster) => Promise<RosterEdit>,
): Promise<SignedRoster & { roster: Roster }> {
  const rootKeys = await loadRootKeys(link.root)
  for (let attempt = 1; ; attempt++) {
    const current = await verifyRosterSignature(link.roster.bytes, link.roster.signature, link.settings.rootPublicKey)
    const next = await renewRoster(rootKeys, current, {
      now: now(),
      ...(await edit(current)),
      signedBy: link.desktop.member.id,
    })
    try {
      await publishRoster(link, next)
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'RELAY_ROSTER_CONFLICT' || attempt >= ROSTER_CHANGE_TRIES) throw error
      await takeRelayRoster(link, home, current.version)
      continue
    }
    await saveRoster(home, next)
    link.roster = next
    return next
  }
}

// The relay's roster replaces the link's only when the root key signed it and it is newer; anything else
// there is the relay's doing, and the next publish (at the revision read here) overwrites it.
async function takeRelayRoster(link: DesktopLink, home: string, heldVersion: number): Promise<void> {
  const published = await getEntry(link.nc, BUCKETS.roster, 'current')
  if (published === undefined) return
  const record = parseRosterRecord(published.value)
  const version =
    record === undefined
      ? undefined
      : await verifyRosterSignature(record.bytes, record.signature, link.settings.rootPublicKey).then(
          (roster) => roster.version,
          () => undefined,
        )
  if (record !== undefined && version !== undefined && version > heldVersion) {
    link.roster = record
    await saveRoster(home, record)
  }
  link.rosterRevision = published.revision
}
