// Byte helpers shared by the crypto modules: strict base64url, UTF-8, hashing. Strict decoding matters:
// a lenient decoder would let two different strings stand for the same key or signature.

/**
 * Bytes backed by a plain ArrayBuffer: what WebCrypto accepts under the DOM typings. Public functions
 * take any `Uint8Array` and copy it with {@link ownBytes}.
 */
export type Bytes = Uint8Array<ArrayBuffer>

/** A copy of `view` in a fresh ArrayBuffer (bytes from NATS or Node may share a pooled or shared buffer). */
export function ownBytes(view: Uint8Array): Bytes {
  return new Uint8Array(view)
}

/**
 * A WebCrypto key, named so that Node's typings and the browser's (the phone) both accept it: Node
 * calls it `webcrypto.CryptoKey`, the DOM `CryptoKey`.
 */
export type WebCryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

/**
 * What HPKE opens with: a private key, or the private key with its public half (the KEM needs the public
 * half too; given the pair it does not derive it again, which costs WebCrypto two round trips per open).
 */
export type HpkeRecipientKey = WebCryptoKey | { readonly privateKey: WebCryptoKey; readonly publicKey: WebCryptoKey }

const BASE64URL = /^[A-Za-z0-9_-]*$/

/** Bytes → base64url without padding (RFC 4648 §5). Runs in Node and in the phone's browser alike. */
export function toBase64url(bytes: Bytes): string {
  let binary = ''
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let at = 0; at < bytes.byteLength; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  }
  const padded = btoa(binary)
  const end = padded.endsWith('==') ? -2 : padded.endsWith('=') ? -1 : padded.length
  return padded.slice(0, end).replace(/\+/g, '-').replace(/\//g, '_')
}

/**
 * Base64url without padding → bytes, or `undefined` when `text` is not the canonical encoding of some
 * bytes (wrong alphabet, padding, impossible length, non-zero trailing bits).
 */
export function fromBase64url(text: string): Bytes | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let at = 0; at < binary.length; at++) bytes[at] = binary.charCodeAt(at)
  return toBase64url(bytes) === text ? bytes : undefined
}

/** A string → its UTF-8 bytes. */
export function utf8(text: string): Bytes {
  return new TextEncoder().encode(text)
}

/** UTF-8 bytes → string; `undefined` when the bytes are not valid UTF-8 (no replacement characters). */
export function fromUtf8(bytes: Bytes): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** The concatenation of `parts`. */
export function concatBytes(...parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** SHA-256 of `bytes` (32 bytes). */
export async function sha256(bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
}

/** `count` bytes from the system's CSPRNG. */
export function randomBytes(count: number): Bytes {
  return crypto.getRandomValues(new Uint8Array(count))
}

/** A fresh random token for ask ids and similar: 16 bytes (128 bits) in base64url (22 chars, no dots). */
export function randomToken(): string {
  return toBase64url(randomBytes(16))
}

/** Parses JSON text; `undefined` instead of throwing on a syntax error. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
