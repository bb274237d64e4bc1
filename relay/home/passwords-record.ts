// Which remote agents one device (a phone) may answer password questions for, as the desktop leaves it
// at `roster/pw.<device>`: the allowed agents' roster ids and a version counter, HPKE-sealed to that
// device's own key (padded, so the relay learns only that a record exists and its size in 512-byte
// steps) and signed by a desktop of the roster over the exact stored bytes. The pattern of the renewed
// credential (relay/renewal/credential-envelope.ts). The phone imports this file: browser-safe, no Node.
import { z } from 'zod'
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes } from '../crypto/encoding'
import type { MemberKeys } from '../crypto/keys'
import { pad, unpad } from '../crypto/padding'
import { findMember } from '../crypto/roster'
import { openSealedBox, sealToKey } from '../crypto/sealed-box'
import type { Member, Roster } from '../crypto/schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from '../crypto/signing'
import { PASSWORDS_KEY_PREFIX } from '../nats/templates'
import { RelayHomeError } from './errors'

const INFO = 'ask-user/v1/device-passwords'
const aad = (device: string, desktop: string): Bytes => utf8(`${INFO}|${device}|${desktop}`)
const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
const MemberId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a member id')

/** The `roster` bucket key of `deviceId`'s record (its NATS name is its member id). */
export function passwordsRecordKey(deviceId: string): string {
  return `${PASSWORDS_KEY_PREFIX}.${deviceId}`
}

/** The signed, stored part: who it is for, which desktop wrote it, and the sealed list. */
export const StoredPasswordsSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('device-passwords'),
  device: MemberId,
  desktop: MemberId,
  enc: Base64url,
  ct: Base64url,
})

/** What is sealed to the device: the agents it may answer passwords for, and the record's version. */
export const DevicePasswordsSchema = z.strictObject({
  v: z.literal(1),
  device: MemberId,
  /** Raised by the desktop at every rewrite: a device never takes a record older than one it took. */
  version: z.int().min(1),
  /** Roster ids of the agents; an id the device's roster does not list as an agent is ignored there. */
  agents: z.array(MemberId).max(500),
})
export type DevicePasswords = z.infer<typeof DevicePasswordsSchema>

/**
 * The exact bytes the desktop `desktop` stores for `device`: `agents` and `version` sealed to the
 * device's HPKE key (padded), the envelope signed by the desktop.
 */
export async function sealDevicePasswords(
  desktop: MemberKeys,
  device: Member,
  record: { version: number; agents: readonly string[] },
): Promise<Bytes> {
  const body = DevicePasswordsSchema.parse({ v: 1, device: device.id, version: record.version, agents: record.agents })
  const box = await sealToKey(
    device.hpkePublic,
    INFO,
    aad(device.id, desktop.member.id),
    pad(utf8(JSON.stringify(body))),
  )
  const stored = StoredPasswordsSchema.parse({
    v: 1,
    t: 'device-passwords',
    device: device.id,
    desktop: desktop.member.id,
    ...box,
  })
  return signEnvelope(desktop.signing, utf8(JSON.stringify(stored)))
}

/**
 * Opens the record `stored` on the device `device` against its verified `roster`, refusing one older
 * than `highestVersion` (the highest this device took; 0 for none). Resolves the version and the allowed
 * agents, keeping only ids `roster` lists as agents (an agent removed from the roster is ignored even if
 * listed). Refuses with:
 * - `RELAY_PASSWORDS_INVALID`: malformed, addressed to another device, or does not open with its key;
 * - `RELAY_PASSWORDS_SIGNATURE`: not signed by a desktop of the roster (the relay or someone else wrote it);
 * - `RELAY_PASSWORDS_ROLLBACK`: its version is below `highestVersion` (an older record served again).
 */
export async function openDevicePasswords(
  device: MemberKeys,
  stored: Uint8Array,
  options: { roster: Roster; highestVersion: number },
): Promise<{ version: number; agents: string[] }> {
  const invalid = (why: string) =>
    new RelayHomeError(
      'RELAY_PASSWORDS_INVALID',
      `The password setting the relay holds for this device ${why}; it was ignored. Set it again in the desktop's Relay view.`,
    )
  const split = splitEnvelope(ownBytes(stored))
  const text = split && fromUtf8(split.content)
  const outer = StoredPasswordsSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (split === undefined || !outer.success) throw invalid('is malformed')
  if (outer.data.device !== device.member.id) throw invalid('is addressed to another device')
  const writer = findMember(options.roster, outer.data.desktop)
  const writerKey = writer?.role === 'desktop' ? fromBase64url(writer.signPublic) : undefined
  if (writerKey === undefined || !(await verifyBytes(writerKey, split.signature, split.content))) {
    throw new RelayHomeError(
      'RELAY_PASSWORDS_SIGNATURE',
      'The password setting on the relay is not signed by a desktop of the roster; it was ignored (the relay or someone else wrote it).',
    )
  }
  const padded = await openSealedBox(device.hpkePrivateKey, INFO, aad(device.member.id, outer.data.desktop), outer.data)
  const plain = padded && unpad(padded)
  const inner = plain && fromUtf8(ownBytes(plain))
  const body = DevicePasswordsSchema.safeParse(inner === undefined ? undefined : parseJson(inner))
  if (!body.success || body.data.device !== device.member.id) throw invalid("does not open with this device's key")
  if (body.data.version < options.highestVersion) {
    throw new RelayHomeError(
      'RELAY_PASSWORDS_ROLLBACK',
      'The relay served an older password setting than the one this device holds; it was ignored.',
    )
  }
  const agents = body.data.agents.filter((id) => findMember(options.roster, id)?.role === 'agent')
  return { version: body.data.version, agents }
}
