// The desktop's half of device credentials: each paired device's 7-day relay credential is re-minted
// for the nkey it gave at pairing, before it runs out, and left sealed to that device at
// `roster/cred.<device>`. Only devices of the current roster get one, so a removed device gets none.
import { findMember, loadMemberKeys, type Member, type Roster } from '../crypto'
import type { DesktopLink } from '../home/desktop-link'
import type { Renewals } from '../home/state'
import { mintRoleJwt } from '../nats/credentials'
import { BUCKETS, CREDENTIAL_KEY_PREFIX } from '../nats/templates'
import { putEntry } from '../pairing'
import { sealDeviceCredential } from './credential-envelope'

const DAY_MS = 86_400_000
/** A device credential lives 7 days (the device role's maximum). */
export const DEVICE_CREDENTIAL_SECONDS = 7 * 86_400
/** A credential with less than this left is renewed, so a desktop started daily renews each about once a day. */
export const DEVICE_RENEW_BEFORE_MS = 6 * DAY_MS

/** Where a device's renewed credential is stored in the `roster` bucket. */
export function credentialKey(deviceId: string): string {
  return `${CREDENTIAL_KEY_PREFIX}.${deviceId}`
}

/**
 * Renews, through the desktop `link`, the credential of every device of `roster` that has a recorded
 * nkey in `renewals`, is not revoked, and has less than {@link DEVICE_RENEW_BEFORE_MS} left at `now`.
 * Returns the updated renewals record (the caller stores it) and the members renewed. A failed write
 * rejects; what was renewed before it is in nothing returned, so the caller stores nothing then.
 */
export async function renewDeviceCredentials(
  link: DesktopLink,
  roster: Roster,
  renewals: Renewals,
  now: () => number,
): Promise<{ renewals: Renewals; renewed: Member[] }> {
  const desktop = await loadMemberKeys(link.desktop)
  const signer = { accountPublicKey: link.keys.accountPublicKey, signingSeed: link.keys.roleSigningSeeds.device, now }
  const devices = { ...renewals.devices }
  const renewed: Member[] = []
  for (const [id, record] of Object.entries(renewals.devices)) {
    const member = findMember(roster, id)
    if (member?.role !== 'device' || renewals.revoked?.[record.nkey] !== undefined) continue
    if (record.expiresAt - now() > DEVICE_RENEW_BEFORE_MS) continue
    const minted = await mintRoleJwt(signer, 'device', member.id, record.nkey, DEVICE_CREDENTIAL_SECONDS)
    await putEntry(
      link.nc,
      BUCKETS.roster,
      credentialKey(member.id),
      await sealDeviceCredential(desktop, member, minted),
    )
    devices[id] = { renewedAt: now(), expiresAt: minted.expiresAt * 1000, nkey: record.nkey }
    renewed.push(member)
  }
  return { renewals: { ...renewals, devices }, renewed }
}
