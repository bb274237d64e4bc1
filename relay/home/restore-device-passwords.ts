// A desktop start's repair of the phones' password records (device-passwords.ts writes them when the
// person changes the setting): a record the relay no longer holds is written again, as it was.
import { loadMemberKeys, type MemberKeys, type MemberSecret, type Roster } from '../crypto'
import { BUCKETS } from '../nats/templates'
import { getEntry, putEntry } from '../pairing'
import type { DesktopLink } from './desktop-link'
import { passwordsRecordKey, sealDevicePasswords } from './passwords-record'
import { agentsAllowedOn, loadRemotePasswords } from './remote-passwords'

/**
 * At a desktop start (and, in a running companion, at every newer roster: a phone paired on another
 * desktop gets this desk's standing `--phones` rule at once): writes again, as this desktop over `link`, the record of every device of `roster`
 * this desk allowed passwords on whose record the relay no longer holds (its storage was reset, or the key
 * was removed), at the version this desk wrote last, so the phone takes it as the same record and nothing
 * is bumped. Records the relay holds are left as they are. Resolves the ids written. Throws the relay's
 * errors; the caller reports them and the start goes on.
 */
export async function restoreDevicePasswords(
  home: string,
  link: Pick<DesktopLink, 'nc'> & { desktop: MemberSecret | MemberKeys },
  roster: Roster,
): Promise<string[]> {
  const setting = await loadRemotePasswords(home)
  const version = setting.devicesVersion
  if (version === undefined) return []
  const agentsOn = agentsAllowedOn(setting)
  const devices = roster.members.filter((member) => member.role === 'device' && agentsOn(member.id).length > 0)
  const written: string[] = []
  const desktop = 'signing' in link.desktop ? link.desktop : await loadMemberKeys(link.desktop)
  for (const device of devices) {
    if ((await getEntry(link.nc, BUCKETS.roster, passwordsRecordKey(device.id))) !== undefined) continue
    const bytes = await sealDevicePasswords(desktop, device, { version, agents: agentsOn(device.id) })
    await putEntry(link.nc, BUCKETS.roster, passwordsRecordKey(device.id), bytes)
    written.push(device.id)
  }
  return written
}
