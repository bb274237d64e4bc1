// HKDF-SHA256 (RFC 5869) computed on the calling thread with @hpke/common's HMAC (noble-hashes), for the
// HPKE suite's key schedule. WebCrypto's HMAC is asynchronous: every extract and expand step is a round
// trip to a crypto thread (about 60 µs in Node, most of a seal's time for a few dozen bytes of hashing).
// The result is byte for byte what @hpke/core's WebCrypto HKDF gives (test/unit/relay/crypto/inline-hkdf.test.ts).
import { HkdfSha256 } from '@hpke/core'
import { hmac, sha256 } from '@hpke/common'

type BytesLike = ArrayBuffer | ArrayBufferView

const HASH_BYTES = 32

/** HKDF-SHA256 for @hpke/core's CipherSuite, each step computed inline instead of through WebCrypto. */
export class InlineHkdfSha256 extends HkdfSha256 {
  override extract(salt: ArrayBuffer, ikm: ArrayBuffer): Promise<ArrayBuffer> {
    return computed(() => extract(salt, ikm))
  }

  override expand(prk: ArrayBuffer, info: ArrayBuffer, len: number): Promise<ArrayBuffer> {
    return computed(() => expand(bytesOf(prk), bytesOf(info), len))
  }

  override extractAndExpand(salt: ArrayBuffer, ikm: ArrayBuffer, info: ArrayBuffer, len: number): Promise<ArrayBuffer> {
    return computed(() => expand(extract(salt, ikm), bytesOf(info), len))
  }
}

/** RFC 5869 §2.2: an empty salt stands for a hash-length string of zeros. */
function extract(salt: BytesLike, ikm: BytesLike): Uint8Array {
  const key = salt.byteLength === 0 ? new Uint8Array(HASH_BYTES) : bytesOf(salt)
  if (key.byteLength !== HASH_BYTES) throw new RangeError('the HKDF salt must be as long as the hash')
  return hmac(sha256, key, bytesOf(ikm))
}

/** RFC 5869 §2.3: T(i) = HMAC(prk, T(i-1) | info | i), concatenated up to `len` bytes. */
function expand(prk: Uint8Array, info: Uint8Array, len: number): Uint8Array {
  if (len > 255 * HASH_BYTES) throw new RangeError('HKDF cannot expand to more than 255 hash lengths')
  const out = new Uint8Array(len)
  let previous: Uint8Array = new Uint8Array(0)
  for (let block = 1, filled = 0; filled < len; block++) {
    const input = new Uint8Array(previous.byteLength + info.byteLength + 1)
    input.set(previous, 0)
    input.set(info, previous.byteLength)
    input[input.byteLength - 1] = block
    previous = hmac(sha256, prk, input)
    out.set(previous.subarray(0, len - filled), filled)
    filled += Math.min(HASH_BYTES, len - filled)
  }
  return out
}

function bytesOf(input: BytesLike): Uint8Array {
  return ArrayBuffer.isView(input)
    ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
    : new Uint8Array(input)
}

/** The result as the KDF interface returns it: a promise of an ArrayBuffer, rejected (never thrown) on bad input. */
function computed(compute: () => Uint8Array): Promise<ArrayBuffer> {
  return new Promise((resolve) => resolve(compute().slice().buffer))
}
