// The one-time pairing line: everything the new device needs, carried by the person from the first
// desktop's screen to the new device's stdin (never argv, a URL, a log or a file).
import { randomToken, toBase64url } from '../crypto'
import { RelayPairingError } from './errors'
import { PairOfferSchema, type PairOffer } from './schemas'

/** How long a pairing line is valid by default: 5 minutes. */
export const PAIR_OFFER_TTL_MS = 5 * 60_000
/** The line's prefix; the version is part of it so an old line is recognised as such. */
export const PAIR_LINE_PREFIX = 'AUP1:'

/** A fresh pairing id (22 base64url characters: one NATS token, and the pairing credential's name). */
export function newPairId(): string {
  return randomToken()
}

/**
 * Makes an offer for pairing `pairId` with a fresh 32-byte secret, valid `ttlMs` from `now`. `creds`
 * must be a pairing-role credential named `pairId` that expires no later than the offer.
 */
export function createPairOffer(options: {
  url: string
  rootPublicKey: string
  pairId: string
  creds: string
  now: number
  ttlMs?: number
}): PairOffer {
  return PairOfferSchema.parse({
    v: 1,
    url: options.url,
    rootPublicKey: options.rootPublicKey,
    pairId: options.pairId,
    secret: toBase64url(crypto.getRandomValues(new Uint8Array(32))),
    issuedAt: options.now,
    expiresAt: options.now + (options.ttlMs ?? PAIR_OFFER_TTL_MS),
    creds: options.creds,
  })
}

/** The printable one-line form of an offer: `AUP1:` and the offer's JSON in base64url. Secret. */
export function formatPairLine(offer: PairOffer): string {
  return `${PAIR_LINE_PREFIX}${Buffer.from(JSON.stringify(offer), 'utf8').toString('base64url')}`
}

/**
 * Parses a pasted line (surrounding whitespace ignored). Throws `RELAY_PAIR_LINE_INVALID` when it is
 * not a whole pairing line and `RELAY_PAIR_EXPIRED` when it is past its expiry at `now` (ms).
 */
export function parsePairLine(text: string, now: number): PairOffer {
  const line = text.trim()
  const invalid = new RelayPairingError(
    'RELAY_PAIR_LINE_INVALID',
    'That is not a whole pairing line; copy the full line starting with AUP1: from `ask-user relay pair` on the first desktop.',
  )
  if (!line.startsWith(PAIR_LINE_PREFIX) || !/^[A-Za-z0-9_-]+$/.test(line.slice(PAIR_LINE_PREFIX.length))) throw invalid
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(line.slice(PAIR_LINE_PREFIX.length), 'base64url').toString('utf8'))
  } catch {
    throw invalid
  }
  const parsed = PairOfferSchema.safeParse(data)
  if (!parsed.success) throw invalid
  if (now >= parsed.data.expiresAt) {
    throw new RelayPairingError(
      'RELAY_PAIR_EXPIRED',
      'This pairing line has expired; run `ask-user relay pair` on the first desktop again for a fresh one.',
    )
  }
  return parsed.data
}
