// Bringing a desktop's cached credential records (relay-renewals.json) and the relay's shared ones
// (desk-records.ts) together: read, merge, store the merge locally, then write it back sealed to the
// roster's desktops with a compare-and-set on the revision read, retried when another desktop wrote
// meanwhile. Called before a desktop renews or revokes (to learn what the others did) and after it
// pairs, renews or revokes (to tell them).
import { loadMemberKeys, type Roster } from '../crypto'
import { BUCKETS, DESK_RECORDS_KEY } from '../nats/templates'
import { getEntry, replaceEntry } from '../pairing'
import { deskRecordsOf, mergeDeskRecords, openDeskRecords, sealDeskRecords, type DeskRecords } from './desk-records'
import type { DesktopLink } from './desktop-link'
import { RelayHomeError } from './errors'
import { loadRenewals, RenewalsSchema, RENEWALS_FILE, saveJson } from './state'

/** How often a write that met another desktop's write is merged and tried again. */
export const DESK_RECORDS_TRIES = 5

/**
 * Merges the records on the relay (readable by this desktop under `roster`, the verified roster the link
 * settled on) into `home`'s cache, stores the merge there, and writes it back sealed to `roster`'s
 * desktops. Resolves with the merge. Throws `RELAY_DESK_RECORDS_CONFLICT` after
 * {@link DESK_RECORDS_TRIES} writes that each met another one, or the connection's error; the cache
 * holds the merge either way, so the next sync publishes it.
 */
export async function syncDeskRecords(link: DesktopLink, home: string, roster: Roster): Promise<DeskRecords> {
  const writer = await loadMemberKeys(link.desktop)
  for (let attempt = 0; attempt < DESK_RECORDS_TRIES; attempt++) {
    const entry = await getEntry(link.nc, BUCKETS.roster, DESK_RECORDS_KEY)
    const remote = entry === undefined ? undefined : await openDeskRecords(writer, roster, entry.value)
    const local = await loadRenewals(home)
    const merged = mergeDeskRecords(deskRecordsOf(local), remote)
    await saveJson(home, RENEWALS_FILE, RenewalsSchema, { ...local, devices: merged.devices, revoked: merged.revoked })
    const sealed = await sealDeskRecords(writer, roster, merged)
    if ((await replaceEntry(link.nc, BUCKETS.roster, DESK_RECORDS_KEY, sealed, entry?.revision ?? 0)) !== undefined)
      return merged
  }
  throw new RelayHomeError(
    'RELAY_DESK_RECORDS_CONFLICT',
    `Another desktop kept changing the shared credential records (${DESK_RECORDS_TRIES} tries); this desktop's records are kept here and published at its next change or renewal. Run the command again.`,
  )
}
