import { z } from 'zod'

/**
 * The companion proves itself before a client trusts it, and the client proves itself without ever
 * sending its secret (docs/protocol.md, "Proof of the companion"):
 * 1. the client offers a proof subprotocol plus `nonce.<client nonce>` (no token on the wire);
 * 2. the companion's first frame is `proof {nonce, mac}`: its own nonce and HMAC-SHA256 under the
 *    secret over {@link proofMessage}('companion', …);
 * 3. the client checks that MAC in constant time, then sends `prove {mac}` over ('client', …);
 * 4. only then does the session begin (agent: `hello`; window: the `snapshot`).
 * A squatter on a dead companion's port has no secret, so it cannot make step 2's MAC; a relay in the
 * middle of a forwarded port never sees the secret, only the frames.
 */

/** The agent endpoint's subprotocol with the proof (our clients); `ask-user.v1` + bearer stays for others. */
export const AGENT_PROOF_SUBPROTOCOL = 'ask-user.v1.proof'
/** The UI channel v2's subprotocol with the proof (the served page, `ask-user` scripts). */
export const UI_PROOF_SUBPROTOCOL = 'ask-user.ui.v2.proof'
/** Prefix of the offered subprotocol that carries the client's nonce. */
export const NONCE_SUBPROTOCOL_PREFIX = 'nonce.'
/** A nonce: 32 random bytes, base64url without padding (43 characters; a valid subprotocol token). */
export const NonceSchema = z.string().regex(/^[\w-]{43}$/, 'a nonce is 43 base64url characters')
/** An HMAC-SHA256, base64url without padding. */
export const MacSchema = z.string().regex(/^[\w-]{43}$/, 'a MAC is 43 base64url characters')

/** Who computes a MAC: the labels keep the companion's proof from ever serving as a client's. */
export type ProofRole = 'companion' | 'client'

/** The text both sides MAC: a role label, the channel, then both nonces, one per line. */
export function proofMessage(
  role: ProofRole,
  channel: 'agent' | 'ui',
  clientNonce: string,
  companionNonce: string,
): string {
  return `ask-user proof v1\n${role}\n${channel}\n${clientNonce}\n${companionNonce}`
}

/** companion → client, the first frame under a proof subprotocol. */
export const ProofFrameSchema = z.object({ type: z.literal('proof'), nonce: NonceSchema, mac: MacSchema })
/** client → companion, the first frame after checking `proof`. */
export const ProveFrameSchema = z.object({ type: z.literal('prove'), mac: MacSchema })
export type ProofFrame = z.infer<typeof ProofFrameSchema>
export type ProveFrame = z.infer<typeof ProveFrameSchema>

/** Under the agent proof subprotocol, a client may ask for the status instead of saying `hello`. */
export const StatusRequestFrameSchema = z.object({ type: z.literal('status') })

/** The close code a companion uses when a client's `prove` is missing, late or wrong. */
export const PROOF_FAILED_CLOSE = 4403

/** The nonce offered as `nonce.<nonce>` among `protocols`, if exactly one valid one is there. */
export function offeredNonce(protocols: readonly string[]): string | undefined {
  const nonces = protocols.filter((item) => item.startsWith(NONCE_SUBPROTOCOL_PREFIX))
  if (nonces.length !== 1) return undefined
  const nonce = nonces[0]!.slice(NONCE_SUBPROTOCOL_PREFIX.length)
  return NonceSchema.safeParse(nonce).success ? nonce : undefined
}

/** The part of WebCrypto the proof needs (present in Node 20+ and every browser's secure contexts). */
interface HmacSubtle {
  importKey(
    format: 'raw',
    key: Uint8Array,
    algorithm: { name: 'HMAC'; hash: 'SHA-256' },
    extractable: false,
    usages: ['sign'],
  ): Promise<unknown>
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>
}

function subtle(): HmacSubtle {
  const crypto = (globalThis as { crypto?: { subtle?: HmacSubtle } }).crypto
  if (crypto?.subtle === undefined)
    throw new Error('WebCrypto is not available here (a page must be served from 127.0.0.1 or localhost)')
  return crypto.subtle
}

/** The bytes of an ASCII text (secrets, nonces and labels are all ASCII; shared/ has no TextEncoder). */
function ascii(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 127) throw new Error('a proof secret is ASCII (base64url)')
    bytes[i] = code
  }
  return bytes
}
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** Bytes as base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6))
    for (let c = 0; c < chars; c++) out += BASE64URL[(n >> (18 - 6 * c)) & 63]
  }
  return out
}

/** HMAC-SHA256 under `secret` over {@link proofMessage}, base64url. */
export async function proofMac(
  secret: string,
  role: ProofRole,
  channel: 'agent' | 'ui',
  clientNonce: string,
  companionNonce: string,
): Promise<string> {
  const key = await subtle().importKey('raw', ascii(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await subtle().sign('HMAC', key, ascii(proofMessage(role, channel, clientNonce, companionNonce)))
  return toBase64Url(new Uint8Array(mac))
}

/** Compares two MACs without an early exit (every character is looked at, whatever differs first). */
export function macsEqual(expected: string, presented: string): boolean {
  if (expected.length !== presented.length) return false
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ presented.charCodeAt(i)
  return diff === 0
}

/** A fresh nonce (32 random bytes, base64url) from WebCrypto's random source. */
export function newNonce(): string {
  const bytes = new Uint8Array(32)
  ;(globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto.getRandomValues(
    bytes,
  )
  return toBase64Url(bytes)
}

/**
 * The client's side of steps 2 and 3: when `text` is the companion's valid `proof` frame for this client
 * nonce and secret (checked in constant time), the `prove` frame to send; `undefined` when it is not (a
 * squatter on the port cannot make it), and then the client sends nothing.
 */
export async function answerProof(
  secret: string,
  channel: 'agent' | 'ui',
  clientNonce: string,
  text: unknown,
): Promise<string | undefined> {
  if (typeof text !== 'string') return undefined
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const proof = ProofFrameSchema.safeParse(json)
  if (!proof.success) return undefined
  const expected = await proofMac(secret, 'companion', channel, clientNonce, proof.data.nonce)
  if (!macsEqual(expected, proof.data.mac)) return undefined
  const prove: ProveFrame = {
    type: 'prove',
    mac: await proofMac(secret, 'client', channel, clientNonce, proof.data.nonce),
  }
  return JSON.stringify(prove)
}
