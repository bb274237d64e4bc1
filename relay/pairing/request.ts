// The new device's pairing request: its member record and NATS nkey, MAC'd with the offer's secret so a
// relay that swaps the keys on the way is caught (RELAY.md §4.5, the slopus/happy#1503 failure).
// WebCrypto only (HMAC-SHA256, SHA-256): the phone runs this in its browser, the terminal in Node.
import { concatBytes, fromBase64url, sha256, toBase64url, utf8, type Bytes } from '../crypto/encoding'
import { memberIdFor } from '../crypto/keys'
import type { Member } from '../crypto/schemas'
import { RelayPairingError } from './errors'
import { PairRequestBodySchema, StoredPairRequestSchema, type PairOffer, type PairRequestBody } from './schemas'

/** How far a request's `created` may lie before the offer was issued (clock skew between machines). */
export const PAIR_CLOCK_SKEW_MS = 5 * 60_000

function secretBytes(offer: PairOffer): Bytes {
  // The schema admits only canonical 32-byte base64url, so this never falls back.
  return fromBase64url(offer.secret) ?? new Uint8Array()
}

// The key type is left to inference: Node's and the DOM's typings name it differently.
function macKey(offer: PairOffer) {
  return crypto.subtle.importKey('raw', secretBytes(offer), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ])
}

/** SHA-256 of a stored request's exact bytes (base64url): what the grant and the confirmation code bind. */
export async function requestDigest(stored: Uint8Array): Promise<string> {
  return toBase64url(await sha256(new Uint8Array(stored)))
}

/** The exact bytes the new device writes to `req.<pairId>` for `member` (role `device`, or `desktop` for `relay connect`) and its `nkey`. */
export async function makePairRequest(
  offer: PairOffer,
  member: Member,
  nkey: string,
  now: number,
): Promise<Uint8Array> {
  const body = JSON.stringify(
    PairRequestBodySchema.parse({ v: 1, t: 'pair-request', pairId: offer.pairId, member, nkey, created: now }),
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await macKey(offer), utf8(body)))
  return utf8(JSON.stringify({ body, mac: toBase64url(mac) }))
}

/**
 * Checks a stored request against the desktop's own `offer` at `now` (ms) and returns its body.
 * A request of role `desktop` is accepted only with `allowDesktop` (the terminal's `relay pair`, where
 * the person is told a desktop joins); otherwise only `device`.
 * Refuses with `RELAY_PAIR_REQUEST_INVALID` (not a request, a member record whose id does not name its
 * key, or a role not accepted here), `RELAY_PAIR_REPLAY` (made for another pairing), `RELAY_PAIR_EXPIRED` (the offer
 * expired, or the request predates it) and `RELAY_PAIR_MAC` (not made with this offer's secret: keys
 * swapped on the way, or a forgery).
 */
export async function checkPairRequest(
  offer: PairOffer,
  stored: Uint8Array,
  now: number,
  options: { allowDesktop?: boolean } = {},
): Promise<PairRequestBody> {
  const invalid = new RelayPairingError(
    'RELAY_PAIR_REQUEST_INVALID',
    'The pairing request is malformed; nothing was paired. Run `ask-user relay pair` again.',
  )
  let outer: unknown
  let inner: unknown
  try {
    outer = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(stored))
    const parsedOuter = StoredPairRequestSchema.safeParse(outer)
    inner = parsedOuter.success ? JSON.parse(parsedOuter.data.body) : undefined
  } catch {
    throw invalid
  }
  const envelope = StoredPairRequestSchema.safeParse(outer)
  const body = PairRequestBodySchema.safeParse(inner)
  if (!envelope.success || !body.success) throw invalid
  if (body.data.pairId !== offer.pairId) {
    throw new RelayPairingError(
      'RELAY_PAIR_REPLAY',
      'The pairing request was made for another pairing (replayed); nothing was paired. Run `ask-user relay pair` again.',
    )
  }
  if (now >= offer.expiresAt || body.data.created < offer.issuedAt - PAIR_CLOCK_SKEW_MS) {
    throw new RelayPairingError(
      'RELAY_PAIR_EXPIRED',
      'The pairing expired before the request was checked; run `ask-user relay pair` again and join within 5 minutes.',
    )
  }
  // HMAC verify compares in constant time.
  const given = fromBase64url(envelope.data.mac) ?? new Uint8Array()
  if (!(await crypto.subtle.verify('HMAC', await macKey(offer), given, utf8(envelope.data.body)))) {
    throw new RelayPairingError(
      'RELAY_PAIR_MAC',
      "The pairing request does not carry this pairing line's MAC: its keys were changed on the way or it was forged. Nothing was paired; run `ask-user relay pair` again.",
    )
  }
  const { member } = body.data
  const roleAccepted = member.role === 'device' || (member.role === 'desktop' && options.allowDesktop === true)
  if (!roleAccepted || (await memberIdFor(fromBase64url(member.signPublic)!)) !== member.id) throw invalid
  return body.data
}

/**
 * The 6-digit confirmation code both screens show: from SHA-256("ask-user-sas-v1" | secret | request
 * digest | root public key). Equal codes prove both sides saw the same request under the same root key.
 */
export async function confirmationCode(offer: PairOffer, stored: Uint8Array): Promise<string> {
  const digest = await sha256(
    concatBytes(
      utf8('ask-user-sas-v1'),
      secretBytes(offer),
      await sha256(new Uint8Array(stored)),
      fromBase64url(offer.rootPublicKey) ?? new Uint8Array(),
    ),
  )
  return String(new DataView(digest.buffer).getUint32(0) % 1_000_000).padStart(6, '0')
}
