// Ed25519 with WebCrypto (Node ≥ 20): keys from 32-byte seeds, signatures over exact bytes, and the
// "content || signature" framing used for envelopes. Signing exact stored bytes, never a re-serialization,
// is the lesson of RELAY.md §4.5.
import { RelayCryptoError } from './errors'
import { concatBytes, fromBase64url, toBase64url, type Bytes, type WebCryptoKey } from './encoding'

/** Bytes in an Ed25519 signature. */
export const SIGNATURE_BYTES = 64
// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): WebCrypto imports private keys only in PKCS#8/JWK.
const PKCS8_ED25519_PREFIX = new Uint8Array([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
])

/** A loaded Ed25519 signing key: a non-extractable private key and its raw 32-byte public key. */
export interface SigningKey {
  readonly privateKey: WebCryptoKey
  readonly publicKey: Bytes
}

/** A fresh random 32-byte Ed25519 seed. */
export function newSigningSeed(): Bytes {
  return crypto.getRandomValues(new Uint8Array(32))
}

/** Loads the Ed25519 key of a 32-byte seed. Throws `KEY_INVALID` when the seed has the wrong size. */
export async function signingKeyFromSeed(seed: Bytes): Promise<SigningKey> {
  // The size is checked before either half starts, so a damaged seed rejects once, with nothing left over.
  const pkcs8 = pkcs8Of(seed)
  const [publicKey, privateKey] = await Promise.all([
    ed25519PublicKeyOf(seed),
    crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign']),
  ])
  return { privateKey, publicKey }
}

/**
 * The raw 32-byte Ed25519 public key of a 32-byte seed, derived by the platform's WebCrypto (native code,
 * not JavaScript). Throws `KEY_INVALID` when the seed has the wrong size.
 */
export async function ed25519PublicKeyOf(seed: Bytes): Promise<Bytes> {
  // Extractable only to learn the public half; the key a signer keeps is imported again, not extractable.
  const exportable = await crypto.subtle.importKey('pkcs8', pkcs8Of(seed), { name: 'Ed25519' }, true, ['sign'])
  const jwk = await crypto.subtle.exportKey('jwk', exportable)
  // fromBase64url, not Buffer: this file also runs in the phone's browser and service worker.
  const publicKey = fromBase64url(jwk.x ?? '')
  if (publicKey?.byteLength !== 32) throw new RelayCryptoError('KEY_INVALID', 'the Ed25519 seed gave no public key')
  return publicKey
}

function pkcs8Of(seed: Bytes): Bytes {
  if (seed.byteLength !== 32)
    throw new RelayCryptoError('KEY_INVALID', 'an Ed25519 seed is 32 bytes; the key file is damaged')
  return concatBytes(PKCS8_ED25519_PREFIX, seed)
}

/** The 64-byte Ed25519 signature of exactly `bytes`. */
export async function signBytes(key: SigningKey, bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, key.privateKey, bytes))
}

/**
 * True when `signature` is a valid Ed25519 signature of exactly `bytes` by the raw 32-byte `publicKey`.
 * Never throws: a malformed key or signature is simply not valid.
 */
export async function verifyBytes(publicKey: Bytes, signature: Bytes, bytes: Bytes): Promise<boolean> {
  if (publicKey.byteLength !== 32 || signature.byteLength !== SIGNATURE_BYTES) return false
  try {
    return await crypto.subtle.verify({ name: 'Ed25519' }, await verifyingKey(publicKey), signature, bytes)
  } catch {
    return false
  }
}

/**
 * Imported verifying keys by their raw bytes: the same few members (root, roster devices and agents) sign
 * everything a process checks, and an import is a WebCrypto round trip of its own. A public key is no
 * secret; the map is cleared when it grows past what any roster holds.
 */
const verifyingKeys = new Map<string, Promise<WebCryptoKey>>()
const VERIFYING_KEYS_KEPT = 256

function verifyingKey(publicKey: Bytes): Promise<WebCryptoKey> {
  const id = toBase64url(publicKey)
  let key = verifyingKeys.get(id)
  if (!key) {
    if (verifyingKeys.size >= VERIFYING_KEYS_KEPT) verifyingKeys.clear()
    key = crypto.subtle.importKey('raw', publicKey.slice(), { name: 'Ed25519' }, false, ['verify'])
    // A key that did not import is not kept: the next check imports it again and fails the same way.
    key.catch(() => verifyingKeys.delete(id))
    verifyingKeys.set(id, key)
  }
  return key
}

/** `content || signature(content)`: the stored form of a signed envelope. */
export async function signEnvelope(key: SigningKey, content: Bytes): Promise<Bytes> {
  return concatBytes(content, await signBytes(key, content))
}

/** Splits a stored signed envelope into its content and trailing signature; `undefined` when too short. */
export function splitEnvelope(stored: Bytes): { content: Bytes; signature: Bytes } | undefined {
  if (stored.byteLength <= SIGNATURE_BYTES) return undefined
  const cut = stored.byteLength - SIGNATURE_BYTES
  return { content: stored.subarray(0, cut), signature: stored.subarray(cut) }
}
