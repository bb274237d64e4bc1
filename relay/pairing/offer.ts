// The one-time pairing offer: everything the new device needs, carried by the person from the first
// desktop's screen to the new device: as a line for its stdin (never argv, a log or a file), or for a
// phone as the fragment of the app's URL (a QR code), which browsers never send to a server.
import { fromBase64url, fromUtf8, parseJson, randomToken, toBase64url, utf8 } from '../crypto/encoding'
import { RelayPairingError } from './errors'
import { PAIR_FRAGMENT_KEY } from './pair-fragment-key'
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
  return `${PAIR_LINE_PREFIX}${encodeOffer(offer)}`
}

function encodeOffer(offer: PairOffer): string {
  return toBase64url(utf8(JSON.stringify(offer)))
}

/** The offer in base64url JSON, or undefined when `text` is not one (strict: canonical base64url). */
function decodeOffer(text: string): PairOffer | undefined {
  const bytes = fromBase64url(text)
  const json = bytes === undefined ? undefined : fromUtf8(bytes)
  const parsed = PairOfferSchema.safeParse(json === undefined ? undefined : parseJson(json))
  return parsed.success ? parsed.data : undefined
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
  const offer = decodeOffer(line.slice(PAIR_LINE_PREFIX.length))
  if (offer === undefined) throw invalid
  if (now >= offer.expiresAt) {
    throw new RelayPairingError(
      'RELAY_PAIR_EXPIRED',
      'This pairing line has expired; run `ask-user relay pair` on the first desktop again for a fresh one.',
    )
  }
  return offer
}

export { PAIR_FRAGMENT_KEY }

/**
 * The phone's pairing link: `appUrl` (no fragment of its own) with the offer in its fragment only, so
 * the offer never reaches the app's server, a proxy or a server log (browsers do not send fragments).
 * Secret. Throws `RELAY_PAIR_LINE_INVALID` when `appUrl` is not an https URL (or http on loopback, for
 * tests) or already has a query or fragment.
 */
export function formatPairLink(appUrl: string, offer: PairOffer): string {
  const url = parseUrl(appUrl)
  const loopback = url !== null && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  if (
    url === null ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.search !== '' ||
    url.hash !== '' ||
    appUrl.includes('#')
  ) {
    throw new RelayPairingError(
      'RELAY_PAIR_LINE_INVALID',
      `The phone app URL "${appUrl}" is not an https URL without query or fragment; set it with \`ask-user relay app-url URL\`.`,
    )
  }
  return `${url.href}#${PAIR_FRAGMENT_KEY}=${encodeOffer(offer)}`
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/**
 * Reads the offer from a URL fragment (`location.hash`, with or without its `#`). Throws
 * `RELAY_PAIR_LINE_INVALID` when the fragment is not exactly `pair=<offer>` and `RELAY_PAIR_EXPIRED`
 * when the offer is past its expiry at `now` (ms).
 */
export function parsePairFragment(hash: string, now: number): PairOffer {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash
  const prefix = `${PAIR_FRAGMENT_KEY}=`
  const offer = fragment.startsWith(prefix) ? decodeOffer(fragment.slice(prefix.length)) : undefined
  if (offer === undefined) {
    throw new RelayPairingError(
      'RELAY_PAIR_LINE_INVALID',
      'This pairing link is damaged or incomplete; scan the QR code from "Add a phone" on the desktop again.',
    )
  }
  if (now >= offer.expiresAt) {
    throw new RelayPairingError(
      'RELAY_PAIR_EXPIRED',
      'This pairing link has expired; press "Add a phone" on the desktop again and scan the new code.',
    )
  }
  return offer
}
