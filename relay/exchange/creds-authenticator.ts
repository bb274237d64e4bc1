// The NATS login with a `.creds` credential, as nats-core's `credsAuthenticator` does it, without its
// cost: that one derives the Ed25519 key pair from the seed three times at every connect (for the public
// key, then inside `sign`), three scalar multiplications in tweetnacl's plain JavaScript; on a throttled
// phone that is 150-220 ms of every dial (docs/performance.md). Here the pair is derived once per
// credential and kept with it in memory (where the `.creds` text already is), the public nkey is the
// user JWT's `sub`, and a connect signs the server's nonce: one multiplication. A relay link has the
// platform's WebCrypto derive the public half in native code while it dials (credsLoginDerivingAhead),
// so tweetnacl's JavaScript does only the signing; and where the transport can hold the server's INFO
// back for a moment (the phone's WebSocket, sign-ahead-socket.ts), WebCrypto signs the nonce too and
// tweetnacl does nothing at all.
import type { Authenticator } from '@nats-io/nats-core'
import { fromSeed, type KeyPair } from '@nats-io/nkeys'
import nacl from 'tweetnacl'
import { signBytes, signingKeyFromSeed, type SigningKey } from '../crypto/signing'

/** A `.creds` file's two parts. */
interface ParsedCreds {
  jwt: string
  /** The user's public nkey (the JWT's `sub`): what the server checks the signature against. */
  nkey: string
  /** tweetnacl's 64-byte secret key (seed and public key) for signing nonces. */
  secretKey: Uint8Array
}

/** The first two armoured values of `.creds` text: each is the first non-empty line after a `-----BEGIN` line. */
function armouredValues(text: string): string[] {
  const values: string[] = []
  let inBlock = false
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('---') && line.includes('BEGIN')) inBlock = true
    else if (inBlock && line !== '') {
      values.push(line)
      inBlock = false
    }
  }
  return values
}

/** A `.creds` text's JWT, its `sub` and the raw 32-byte seed. */
interface SplitCreds {
  jwt: string
  nkey: string
  seed: Uint8Array<ArrayBuffer>
}

/** Splits `.creds` text; throws as nats-core does for text that is not a credential. */
function splitCreds(text: string): SplitCreds {
  const [jwt, seed] = armouredValues(text)
  if (jwt === undefined || seed === undefined) throw new Error('unable to parse credentials')
  const claims = JSON.parse(new TextDecoder().decode(base64urlBytes(jwt.split('.')[1] ?? ''))) as { sub?: unknown }
  if (typeof claims.sub !== 'string') throw new Error('unable to parse credentials')
  // nkeys decodes and checks the seed (its prefix and checksum); its key pair object derives the Ed25519
  // pair at every call, so the raw seed is taken from it once and derived here once.
  const pair = fromSeed(new TextEncoder().encode(seed)) as KeyPair & { getRawSeed?: () => Uint8Array }
  if (typeof pair.getRawSeed !== 'function') throw new Error('this @nats-io/nkeys does not expose the raw seed')
  return { jwt, nkey: claims.sub, seed: new Uint8Array(pair.getRawSeed()) }
}

/**
 * tweetnacl's secret key (seed, then public key) for a split credential: with `publicKey` the seed's own
 * public half, derived already; else derived here (a scalar multiplication in JavaScript).
 */
function parseCreds({ jwt, nkey, seed }: SplitCreds, publicKey?: Uint8Array): ParsedCreds {
  const secretKey = new Uint8Array(64)
  secretKey.set(seed)
  secretKey.set(publicKey ?? nacl.sign.keyPair.fromSeed(seed).publicKey, 32)
  return { jwt, nkey, secretKey }
}

function base64urlBytes(text: string): Uint8Array {
  const binary = atob(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  )
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

// The signature as nats-core sends it: standard base64, padded.
function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
}

/**
 * An authenticator for `creds` (the `.creds` text, or a function asked for it at every connect, so a
 * renewed credential is used from the next reconnect on): the JWT, its public nkey and the nonce signed
 * with the seed. The key pair is derived again only when the text changes.
 */
export function credsLogin(creds: string | (() => string)): Authenticator {
  return loginWith(creds, () => undefined)
}

/** A login whose credential's keys WebCrypto loads ahead, and which can sign a nonce ahead too. */
export interface LoginAhead extends Authenticator {
  /** Settles once the early derivation has ended (whether or not it succeeded). */
  derived: Promise<void>
  /**
   * Signs `nonce` with WebCrypto (native code, off this thread) for the login's next call with that
   * nonce and the same credential text. Never rejects: where it cannot (no Ed25519 in WebCrypto, text
   * that is no credential), the login signs with tweetnacl as before.
   */
  signAhead(nonce: string): Promise<void>
}

/** What a {@link LoginAhead} prepared for one credential text. */
interface Prepared {
  text: string
  parsed: ParsedCreds
  key: SigningKey
  /** The last nonce signed ahead, with its signature as the server reads it. */
  signed?: { nonce: string; sig: string }
}

/**
 * {@link credsLogin}, with the current credential's key pair loaded at once by WebCrypto (native code; on
 * a throttled phone tweetnacl takes 45-85 ms to derive the public half) while the connection opens. The
 * server's nonce comes a round trip later; should it come first, or the platform lack Ed25519 in
 * WebCrypto, tweetnacl derives it as credsLogin does. A transport that hands the nonce to
 * {@link LoginAhead.signAhead} before nats-core asks for the login saves tweetnacl's signature as well
 * (50-120 ms of the phone's throttled first screen).
 */
export function credsLoginDerivingAhead(creds: string | (() => string)): LoginAhead {
  const currentText = (): string => (typeof creds === 'string' ? creds : creds())
  let prepared: Prepared | undefined
  let preparing: { text: string; ready: Promise<Prepared> } | undefined
  const prepare = (text: string): Promise<Prepared> => {
    if (preparing?.text !== text) {
      const ready = (async () => {
        const split = splitCreds(text)
        const key = await signingKeyFromSeed(split.seed)
        prepared = { text, parsed: parseCreds(split, key.publicKey), key }
        return prepared
      })()
      preparing = { text, ready }
    }
    return preparing.ready
  }
  const login = loginWith(creds, () => prepared)
  // Text that is no credential is refused when the server asks, as credsLogin does.
  const derived = prepare(currentText()).then(
    () => undefined,
    () => undefined,
  )
  const signAhead = async (nonce: string): Promise<void> => {
    try {
      const ready = await prepare(currentText())
      const signature = await signBytes(ready.key, new TextEncoder().encode(nonce))
      ready.signed = { nonce, sig: base64(signature) }
    } catch {
      // tweetnacl signs when asked
    }
  }
  return Object.assign(login, { derived, signAhead })
}

function loginWith(creds: string | (() => string), prepared: () => Prepared | undefined): Authenticator {
  let cached: { text: string; parsed: ParsedCreds } | undefined
  return (nonce?: string) => {
    const text = typeof creds === 'string' ? creds : creds()
    const ahead = prepared()
    if (cached?.text !== text) cached = ahead?.text === text ? ahead : { text, parsed: parseCreds(splitCreds(text)) }
    const { jwt, nkey, secretKey } = cached.parsed
    if (!nonce) return { jwt, nkey, sig: '' }
    const signedAhead = ahead?.text === text && ahead.signed?.nonce === nonce ? ahead.signed.sig : undefined
    return { jwt, nkey, sig: signedAhead ?? base64(nacl.sign.detached(new TextEncoder().encode(nonce), secretKey)) }
  }
}
