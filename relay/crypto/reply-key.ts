// The agent's per-ask reply key: a fresh X25519 pair whose public half goes into the question header and
// whose private half lives only in the agent's memory until the ask is settled, then is dropped. An
// answer sealed to it cannot be read later even if the agent's long-term keys leak.
import type { CryptoKeyHandle } from './encoding'
import { toBase64url } from './encoding'
import { X25519_SUITE } from './suite'

/** A reply key pair: `publicKey` (base64url) for the question header, `privateKey` to accept the answer. */
export interface ReplyKey {
  readonly publicKey: string
  readonly privateKey: CryptoKeyHandle
}

/** Generates a fresh reply key for one ask. Keep it in memory only; drop it once the ask is settled. */
export async function newReplyKey(): Promise<ReplyKey> {
  const pair = await X25519_SUITE.kem.generateKeyPair()
  const publicKey = toBase64url(new Uint8Array(await X25519_SUITE.kem.serializePublicKey(pair.publicKey)))
  return { publicKey, privateKey: pair.privateKey as CryptoKeyHandle }
}
