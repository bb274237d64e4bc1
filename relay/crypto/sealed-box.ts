// One-shot HPKE sealing to a member's public key, for messages that are not questions or answers (the
// pairing response). `info` separates each use; `aad` binds the box to its context.
import type { CryptoKeyHandle } from './encoding'
import { fromBase64url, toBase64url, utf8, type Bytes } from './encoding'
import { RelayCryptoError } from './errors'
import { X25519_SUITE } from './suite'

/** A sealed box as stored: the HPKE encapsulation and the ciphertext, both base64url. */
export interface SealedBox {
  enc: string
  ct: string
}

/**
 * Seals `plaintext` to the raw X25519 public key `hpkePublic` (base64url, as in a member record) under
 * `info` and `aad`. Throws `KEY_INVALID` when `hpkePublic` is not an X25519 key.
 */
export async function sealToKey(
  hpkePublic: string,
  info: string,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Promise<SealedBox> {
  const raw = fromBase64url(hpkePublic)
  const recipientPublicKey = await X25519_SUITE.kem
    .deserializePublicKey((raw ?? new Uint8Array()).slice().buffer)
    .catch(() => undefined)
  if (!recipientPublicKey)
    throw new RelayCryptoError('KEY_INVALID', 'the recipient key is not an X25519 key; it cannot be sealed to')
  const sealed = await X25519_SUITE.seal(
    { recipientPublicKey, info: utf8(info) },
    new Uint8Array(plaintext),
    new Uint8Array(aad),
  )
  return { enc: toBase64url(new Uint8Array(sealed.enc)), ct: toBase64url(new Uint8Array(sealed.ct)) }
}

/** Opens a {@link SealedBox} with the recipient's HPKE private key; `undefined` when it does not open. */
export async function openSealedBox(
  recipientKey: CryptoKeyHandle,
  info: string,
  aad: Uint8Array,
  box: SealedBox,
): Promise<Bytes | undefined> {
  const enc = fromBase64url(box.enc)
  const ct = fromBase64url(box.ct)
  if (!enc || !ct) return undefined
  try {
    return new Uint8Array(
      await X25519_SUITE.open(
        { recipientKey, enc: enc.slice().buffer, info: utf8(info) },
        ct.slice().buffer,
        new Uint8Array(aad),
      ),
    )
  } catch {
    return undefined
  }
}
