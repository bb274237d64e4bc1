// The one HPKE suite of 'x25519-ed25519' members: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM
// (RFC 9180), on WebCrypto through @hpke/core. The phone's P-256 fallback will add a second suite here.
import { Aes256Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core'
import { utf8 } from './encoding'

/** The HPKE suite for members whose `suite` is 'x25519-ed25519'. */
export const X25519_SUITE = new CipherSuite({
  kem: new DhkemX25519HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
})

/** HPKE `info` when a question's content key is wrapped to a device: separates it from every other use. */
export const CONTENT_KEY_INFO = utf8('ask-user/v1/cek')
/** HPKE `info` when an answer is sealed to the agent's per-ask reply key. */
export const ANSWER_INFO = utf8('ask-user/v1/answer')
