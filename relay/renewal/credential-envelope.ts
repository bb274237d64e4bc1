// A device's renewed relay credential as the desktop leaves it at `roster/cred.<device>`: the user JWT
// for the nkey the device made at pairing, HPKE-sealed to the device's own key and signed by a desktop
// of the roster. The nkey seed never travels: the device combines the JWT with the seed it kept.
import { decode, fmtCreds, parseCreds } from '@nats-io/jwt'
import { fromSeed } from '@nats-io/nkeys'
import { z } from 'zod'
import {
  findMember,
  fromBase64url,
  openSealedBox,
  sealToKey,
  signEnvelope,
  splitEnvelope,
  verifyBytes,
  type Member,
  type MemberKeys,
  type Roster,
  type Bytes,
} from '../crypto'
import { RelayRenewalError } from './errors'

const INFO = 'ask-user/v1/device-credential'
const aad = (device: string, desktop: string): Uint8Array => new TextEncoder().encode(`${INFO}|${device}|${desktop}`)
const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
const MemberId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a member id')

/** The signed, stored part: who it is for, which desktop wrote it, and the sealed credential. */
export const StoredCredentialSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('device-credential'),
  device: MemberId,
  desktop: MemberId,
  enc: Base64url,
  ct: Base64url,
})

/** What is sealed to the device: its new JWT and the facts it checks before using it. */
export const SealedCredentialSchema = z.strictObject({
  v: z.literal(1),
  device: MemberId,
  /** The NATS user JWT for the device's own nkey. */
  jwt: z.string().min(1).max(4_096),
  /** Seconds since the epoch, as in the JWT. */
  expiresAt: z.int().min(0),
})
export type SealedCredential = z.infer<typeof SealedCredentialSchema>

const encode = (value: unknown): Bytes => new Uint8Array(new TextEncoder().encode(JSON.stringify(value)))

/** The exact bytes the desktop `desktop` stores for `device`: sealed to its HPKE key, signed by the desktop. */
export async function sealDeviceCredential(
  desktop: MemberKeys,
  device: Member,
  credential: { jwt: string; expiresAt: number },
): Promise<Uint8Array> {
  const body = SealedCredentialSchema.parse({
    v: 1,
    device: device.id,
    jwt: credential.jwt,
    expiresAt: credential.expiresAt,
  })
  const box = await sealToKey(device.hpkePublic, INFO, aad(device.id, desktop.member.id), encode(body))
  const stored = StoredCredentialSchema.parse({
    v: 1,
    t: 'device-credential',
    device: device.id,
    desktop: desktop.member.id,
    ...box,
  })
  return signEnvelope(desktop.signing, encode(stored))
}

/**
 * Whether `split` (a signed envelope's content and signature) is signed by the member `writerId`, and
 * that member is a desktop of `roster`: the check for anything only a desktop may write on the relay.
 */
export async function signedByRosterDesktop(
  roster: Roster,
  writerId: string,
  split: { content: Bytes; signature: Bytes },
): Promise<boolean> {
  const writer = findMember(roster, writerId)
  const writerKey = writer?.role === 'desktop' ? fromBase64url(writer.signPublic) : undefined
  return writerKey !== undefined && verifyBytes(writerKey, split.signature, split.content)
}

/**
 * Opens a renewal on the device `device` against its verified `roster` and its current `.creds`, and
 * returns the new `.creds` text (the new JWT with the seed the device kept) and its expiry (seconds), or
 * `undefined` when it is the credential the device already holds. Refuses with:
 * - `RELAY_CREDENTIAL_INVALID`: malformed, for another device, does not open, or a JWT for another nkey;
 * - `RELAY_CREDENTIAL_SIGNATURE`: not signed by a desktop of the roster (the relay or someone else wrote it);
 * - `RELAY_CREDENTIAL_ROLLBACK`: it expires before `currentExpiresAt` (an older renewal served again).
 */
export async function openDeviceCredential(
  device: MemberKeys,
  stored: Uint8Array,
  options: { roster: Roster; currentCreds: string; currentExpiresAt: number },
): Promise<{ creds: string; expiresAt: number } | undefined> {
  const invalid = (why: string) =>
    new RelayRenewalError(
      'RELAY_CREDENTIAL_INVALID',
      `The renewed relay credential ${why}; it was ignored. Run \`ask-user relay renew\` on the first desktop.`,
    )
  const split = splitEnvelope(new Uint8Array(stored))
  let data: unknown
  try {
    data = split === undefined ? undefined : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(split.content))
  } catch {
    data = undefined
  }
  const outer = StoredCredentialSchema.safeParse(data)
  if (split === undefined || !outer.success) throw invalid('is malformed')
  if (outer.data.device !== device.member.id) throw invalid('is for another device')
  if (!(await signedByRosterDesktop(options.roster, outer.data.desktop, split))) {
    throw new RelayRenewalError(
      'RELAY_CREDENTIAL_SIGNATURE',
      'The renewed relay credential is not signed by a desktop of the roster; it was ignored (the relay or someone else wrote it).',
    )
  }
  const plain = await openSealedBox(device.hpkePrivateKey, INFO, aad(device.member.id, outer.data.desktop), outer.data)
  let inner: unknown
  try {
    inner = plain === undefined ? undefined : JSON.parse(new TextDecoder().decode(plain))
  } catch {
    inner = undefined
  }
  const body = SealedCredentialSchema.safeParse(inner)
  if (!body.success || body.data.device !== device.member.id) throw invalid("does not open with this device's key")
  const current = await parseCreds(new TextEncoder().encode(options.currentCreds)).catch(() => undefined)
  if (current === undefined) throw invalid("cannot be combined with this device's stored credential, which is damaged")
  const nkey = fromSeed(new TextEncoder().encode(current.key))
  let claims: { sub: string; exp?: number }
  try {
    claims = decode(body.data.jwt)
  } catch {
    throw invalid('carries a malformed JWT')
  }
  if (claims.sub !== nkey.getPublicKey() || claims.exp !== body.data.expiresAt)
    throw invalid('was minted for another key')
  if (body.data.expiresAt === options.currentExpiresAt) return undefined
  if (body.data.expiresAt < options.currentExpiresAt) {
    throw new RelayRenewalError(
      'RELAY_CREDENTIAL_ROLLBACK',
      'The relay served an older renewed credential than the one this device holds; it was ignored.',
    )
  }
  return { creds: new TextDecoder().decode(fmtCreds(body.data.jwt, nkey)), expiresAt: body.data.expiresAt }
}
