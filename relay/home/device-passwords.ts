// Writing the phones' password records (passwords-record.ts) on the relay: the desktop's side of
// "Allow passwords from this agent … also on my phone". Node only (it opens the desktop's link).
import { findMember, loadMemberKeys, type Roster } from '../crypto'
import { putEntry } from '../pairing'
import { BUCKETS } from '../nats/templates'
import { openDesktopLink } from './desktop-link'
import { passwordsRecordKey, sealDevicePasswords } from './passwords-record'

/**
 * Seals and writes, as this desktop, the record of each device in `deviceIds` that `roster` lists: the
 * agents `agentsOn(device)` under `version`, at `roster/pw.<device>` (a put: the version inside, not the
 * relay's revision, is what a device checks). Throws the desktop link's codes (`RELAY_NOT_INITIALIZED` on
 * a desk that is not a desktop of the roster) and connection errors; a device gets either its whole new
 * record or none.
 */
export async function publishDevicePasswords(
  home: string,
  roster: Roster,
  deviceIds: readonly string[],
  version: number,
  agentsOn: (deviceId: string) => string[],
  now: () => number = Date.now,
): Promise<void> {
  const link = await openDesktopLink(home, now)
  try {
    const desktop = await loadMemberKeys(link.desktop)
    for (const id of deviceIds) {
      const device = findMember(roster, id)
      if (device?.role !== 'device') continue
      const bytes = await sealDevicePasswords(desktop, device, { version, agents: agentsOn(id) })
      await putEntry(link.nc, BUCKETS.roster, passwordsRecordKey(id), bytes)
    }
  } finally {
    await link.nc.close()
  }
}
