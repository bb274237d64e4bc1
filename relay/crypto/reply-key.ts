// The agent's per-ask reply key: a fresh X25519 pair whose public half goes into the question header and
// whose private half lives only in the agent's memory until the ask is settled, then is dropped. An
// answer sealed to it cannot be read later even if the agent's long-term keys leak.
import { toBase64url, type HpkeRecipientKey, type WebCryptoKey } from './encoding'
import { X25519_SUITE } from './suite'

/**
 * A reply key pair: `publicKey` (base64url) for the question header, `privateKey` to accept the answer
 * (`recipient`: the same private key with its public half, which opens the answer with less work).
 */
export interface ReplyKey {
  readonly publicKey: string
  readonly privateKey: WebCryptoKey
  readonly recipient: HpkeRecipientKey
}

/** Generates a fresh reply key for one ask. Keep it in memory only; drop it once the ask is settled. */
export async function newReplyKey(): Promise<ReplyKey> {
  const pair = await X25519_SUITE.kem.generateKeyPair()
  const publicKey = toBase64url(new Uint8Array(await X25519_SUITE.kem.serializePublicKey(pair.publicKey)))
  const privateKey = pair.privateKey as WebCryptoKey
  return { publicKey, privateKey, recipient: { privateKey, publicKey: pair.publicKey as WebCryptoKey } }
}
