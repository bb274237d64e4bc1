// The desktop's reply to a confirmed request: the new device's relay credential and the roster listing
// it, sealed to the device's own HPKE key. The device trusts it only if the roster is signed by the root
// key it pinned from the line and lists the device itself, so a relay cannot hand it a forged grant.
import { fromBase64url, toBase64url } from '../crypto/encoding'
import type { MemberKeys } from '../crypto/keys'
import { findMember, verifyRoster, type SignedRoster } from '../crypto/roster'
import type { Roster } from '../crypto/schemas'
import { openSealedBox, sealToKey } from '../crypto/sealed-box'
import { RelayPairingError } from './errors'
import { requestDigest } from './request'
import {
  PairGrantSchema,
  type DeskSecrets,
  StoredPairResponseSchema,
  type PairGrant,
  type PairOffer,
  type PairRequestBody,
} from './schemas'

const INFO = 'ask-user/v1/pair-grant'
const aad = (pairId: string, digest: string): Uint8Array => new TextEncoder().encode(`${INFO}|${pairId}|${digest}`)
const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value))

/** The exact bytes the desktop writes to `resp.<pairId>` to grant `request`. */
export async function sealPairGrant(options: {
  offer: PairOffer
  request: PairRequestBody
  storedRequest: Uint8Array
  jwt: string
  natsName: string
  credsExpiresAt: number
  roster: SignedRoster
  desk?: DeskSecrets
}): Promise<Uint8Array> {
  const digest = await requestDigest(options.storedRequest)
  const grant = PairGrantSchema.parse({
    v: 1,
    t: 'pair-grant',
    pairId: options.offer.pairId,
    request: digest,
    jwt: options.jwt,
    natsName: options.natsName,
    credsExpiresAt: options.credsExpiresAt,
    roster: {
      bytes: toBase64url(new Uint8Array(options.roster.bytes)),
      signature: toBase64url(new Uint8Array(options.roster.signature)),
    },
    ...(options.desk === undefined ? {} : { desk: options.desk }),
  })
  const box = await sealToKey(options.request.member.hpkePublic, INFO, aad(options.offer.pairId, digest), encode(grant))
  return encode({ v: 1, t: 'granted', pairId: options.offer.pairId, ...box })
}

/**
 * The bytes the desktop writes to `resp.<pairId>` when the person declines (or the pairing is refused);
 * with `reason` 'cancelled' when the person withdrew the offer before any device asked.
 */
export function declinePairResponse(pairId: string, reason?: 'cancelled'): Uint8Array {
  return encode({ v: 1, t: 'declined', pairId, ...(reason !== undefined ? { reason } : {}) })
}

/**
 * Opens the desktop's reply on the new device. Returns the grant and the verified roster, or refuses
 * with `RELAY_PAIR_DECLINED`, `RELAY_PAIR_CANCELLED` (the offer was withdrawn on the desktop), `RELAY_PAIR_RESPONSE_INVALID` (not for this request, does not open, or a
 * roster that does not list this device) or a roster code (`ROSTER_SIGNATURE`: not signed by the
 * pinned root key).
 */
export async function openPairResponse(
  device: MemberKeys,
  stored: Uint8Array,
  options: { offer: PairOffer; storedRequest: Uint8Array; now: number },
): Promise<{ grant: PairGrant; roster: Roster; signedRoster: SignedRoster }> {
  const invalid = (why: string) =>
    new RelayPairingError(
      'RELAY_PAIR_RESPONSE_INVALID',
      `The desktop's reply ${why}; nothing was stored. Run \`ask-user relay pair\` on the desktop again.`,
    )
  let data: unknown
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(stored))
  } catch {
    throw invalid('is malformed')
  }
  const response = StoredPairResponseSchema.safeParse(data)
  if (!response.success || response.data.pairId !== options.offer.pairId)
    throw invalid('is malformed or for another pairing')
  if (response.data.t === 'declined') {
    if (response.data.reason === 'cancelled') throw pairingCancelled()
    throw new RelayPairingError(
      'RELAY_PAIR_DECLINED',
      'The pairing was declined or refused on the first desktop; nothing was paired.',
    )
  }
  const digest = await requestDigest(options.storedRequest)
  const plain = await openSealedBox(device.hpkePrivateKey, INFO, aad(options.offer.pairId, digest), response.data)
  let grantData: unknown
  try {
    grantData = plain === undefined ? undefined : JSON.parse(new TextDecoder().decode(plain))
  } catch {
    grantData = undefined
  }
  const grant = PairGrantSchema.safeParse(grantData)
  if (!grant.success || grant.data.request !== digest || grant.data.pairId !== options.offer.pairId)
    throw invalid('does not open or answers another request')
  const bytes = fromBase64url(grant.data.roster.bytes)
  const signature = fromBase64url(grant.data.roster.signature)
  if (bytes === undefined || signature === undefined) throw invalid('carries a malformed roster')
  const signedRoster = { bytes, signature }
  const roster = await verifyRoster(signedRoster.bytes, signedRoster.signature, options.offer.rootPublicKey, {
    highestSeenVersion: 0,
    now: options.now,
  })
  if (findMember(roster, device.member.id)?.signPublic !== device.member.signPublic)
    throw invalid('carries a roster that does not list this device')
  return {
    grant: grant.data,
    roster,
    signedRoster,
  }
}

/** The refusal a device meets when the person withdrew the offer on the desktop (Cancel) before it asked. */
export function pairingCancelled(): RelayPairingError {
  return new RelayPairingError(
    'RELAY_PAIR_CANCELLED',
    'The pairing was cancelled on the desktop; nothing was paired. Start pairing there again and use the new code.',
  )
}
