// The one HPKE suite of 'x25519-ed25519' members: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM
// (RFC 9180), through @hpke/core: X25519 and AES-GCM on WebCrypto, the HKDF steps of the KEM and of the
// key schedule inline (inline-hkdf.ts). The phone's P-256 fallback will add a second suite here.
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, KemId } from '@hpke/core'
import { i2Osp, SUITE_ID_HEADER_KEM } from '@hpke/common'
import { utf8 } from './encoding'
import { InlineHkdfSha256 } from './inline-hkdf'

/** DHKEM(X25519, HKDF-SHA256) whose shared-secret derivation runs inline rather than on WebCrypto. */
class InlineDhkemX25519HkdfSha256 extends DhkemX25519HkdfSha256 {
  constructor() {
    super()
    const kdf = new InlineHkdfSha256()
    const suiteId = new Uint8Array(SUITE_ID_HEADER_KEM)
    suiteId.set(i2Osp(KemId.DhkemX25519HkdfSha256, 2), 3)
    kdf.init(suiteId)
    this._kdf = kdf
  }
}

/** The HPKE suite for members whose `suite` is 'x25519-ed25519'. */
export const X25519_SUITE = new CipherSuite({
  kem: new InlineDhkemX25519HkdfSha256(),
  kdf: new InlineHkdfSha256(),
  aead: new Aes256Gcm(),
})

/** HPKE `info` when a question's content key is wrapped to a device: separates it from every other use. */
export const CONTENT_KEY_INFO = utf8('ask-user/v1/cek')
/** HPKE `info` when an answer is sealed to the agent's per-ask reply key. */
export const ANSWER_INFO = utf8('ask-user/v1/answer')
