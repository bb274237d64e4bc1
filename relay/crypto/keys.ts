// Member and root identities: generated here, exported as a public record for the roster and a private
// record for the member's own 0600 file (the caller writes it through core/private-files), and loaded
// back as non-extractable WebCrypto keys.
import { RelayCryptoError } from './errors'
import {
  concatBytes,
  fromBase64url,
  sha256,
  toBase64url,
  type Bytes,
  type HpkeRecipientKey,
  type WebCryptoKey,
} from './encoding'
import { recoveryCodeFromSeed, seedFromRecoveryCode } from './recovery-code'
import {
  MemberSecretSchema,
  RootSecretSchema,
  type Member,
  type MemberRole,
  type MemberSecret,
  type RootSecret,
} from './schemas'
import { newSigningSeed, signingKeyFromSeed, type SigningKey } from './signing'
import { X25519_SUITE } from './suite'

/** A member's keys in memory: its public record, its HPKE private key and its signing key. */
export interface MemberKeys {
  readonly member: Member
  readonly hpkePrivateKey: WebCryptoKey
  /** The public half of `hpkePrivateKey`, when loaded: questions open faster with the pair (HpkeRecipientKey). */
  readonly hpkePublicKey?: WebCryptoKey
  readonly signing: SigningKey
}

/** What HPKE opens with for `keys`: the key pair when its public half is loaded, else the private key alone. */
export function hpkeRecipientOf(keys: Pick<MemberKeys, 'hpkePrivateKey' | 'hpkePublicKey'>): HpkeRecipientKey {
  return keys.hpkePublicKey ? { privateKey: keys.hpkePrivateKey, publicKey: keys.hpkePublicKey } : keys.hpkePrivateKey
}

/** The root identity in memory: signs rosters. `publicKey` is what phones and agents pin. */
export interface RootKeys {
  readonly signing: SigningKey
  /** The raw 32-byte root public key in base64url: the value to pin at pairing. */
  readonly publicKey: string
}

/** The member id of a raw Ed25519 public key: base64url of the first 16 bytes of its SHA-256. */
export async function memberIdFor(signPublic: Bytes): Promise<string> {
  return toBase64url((await sha256(signPublic)).subarray(0, 16))
}

/**
 * Generates a member identity on this machine (an X25519 HPKE pair and an Ed25519 pair). Returns the
 * public record for the roster and the private record to store 0600; private keys never leave it.
 */
export async function generateMemberIdentity(
  name: string,
  role: MemberRole,
): Promise<{ member: Member; secret: MemberSecret }> {
  const hpke = await X25519_SUITE.kem.generateKeyPair()
  const hpkePublic = new Uint8Array(await X25519_SUITE.kem.serializePublicKey(hpke.publicKey))
  const hpkePrivate = new Uint8Array(await X25519_SUITE.kem.serializePrivateKey(hpke.privateKey))
  const seed = newSigningSeed()
  const signing = await signingKeyFromSeed(seed)
  const member: Member = {
    id: await memberIdFor(signing.publicKey),
    name,
    role,
    suite: 'x25519-ed25519',
    hpkePublic: toBase64url(hpkePublic),
    signPublic: toBase64url(signing.publicKey),
  }
  const secret = MemberSecretSchema.parse({
    v: 1,
    member,
    hpkePrivate: toBase64url(hpkePrivate),
    signSeed: toBase64url(seed),
  })
  return { member: secret.member, secret }
}

/**
 * Loads a stored member secret (parsed here, so raw file content may be passed). Throws `KEY_INVALID`
 * when it is malformed or its private keys do not match its public record (a damaged or edited file).
 */
export async function loadMemberKeys(stored: unknown): Promise<MemberKeys> {
  const parsed = MemberSecretSchema.safeParse(stored)
  if (!parsed.success)
    throw new RelayCryptoError('KEY_INVALID', 'the member key file is malformed; pair this device again')
  const { member, hpkePrivate, signSeed } = parsed.data
  const signing = await signingKeyFromSeed(fromBase64url(signSeed)!)
  const hpkePrivateKey = await X25519_SUITE.kem.deserializePrivateKey(fromBase64url(hpkePrivate)!.slice().buffer)
  const derivedPublic = await hpkePublicOf(fromBase64url(hpkePrivate)!)
  if (
    toBase64url(signing.publicKey) !== member.signPublic ||
    (await memberIdFor(signing.publicKey)) !== member.id ||
    derivedPublic !== member.hpkePublic
  ) {
    throw new RelayCryptoError(
      'KEY_INVALID',
      'the member key file does not match its own public record; pair this device again',
    )
  }
  const hpkePublicKey = await X25519_SUITE.kem.deserializePublicKey(fromBase64url(member.hpkePublic)!.slice().buffer)
  return { member, hpkePrivateKey, hpkePublicKey, signing }
}

// PKCS#8 wrapping of a raw X25519 private key (RFC 8410), to ask WebCrypto for its public half.
const PKCS8_X25519_PREFIX = new Uint8Array([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20,
])

// The base64url X25519 public key of a raw private key (the KEM's deriveKeyPair hashes its input, so
// it cannot be used to recompute a stored pair).
async function hpkePublicOf(privateRaw: Bytes): Promise<string> {
  const key = await crypto.subtle.importKey(
    'pkcs8',
    concatBytes(PKCS8_X25519_PREFIX, privateRaw),
    { name: 'X25519' },
    true,
    ['deriveBits'],
  )
  const jwk = await crypto.subtle.exportKey('jwk', key)
  return jwk.x ?? ''
}

/** Generates the person's root identity. Returns its stored secret and the recovery code to print once. */
export async function generateRootIdentity(): Promise<{ secret: RootSecret; recoveryCode: string; publicKey: string }> {
  const seed = newSigningSeed()
  const signing = await signingKeyFromSeed(seed)
  return {
    secret: { v: 1, signSeed: toBase64url(seed) },
    recoveryCode: await recoveryCodeFromSeed(seed),
    publicKey: toBase64url(signing.publicKey),
  }
}

/** Loads the stored root secret. Throws `KEY_INVALID` when it is malformed (restore it from the recovery code). */
export async function loadRootKeys(stored: unknown): Promise<RootKeys> {
  const parsed = RootSecretSchema.safeParse(stored)
  if (!parsed.success)
    throw new RelayCryptoError(
      'KEY_INVALID',
      'the root key file is malformed; restore it with `ask-user relay` and the printed recovery code',
    )
  return rootKeysFromSeed(fromBase64url(parsed.data.signSeed)!)
}

/** Restores the root identity from its printed recovery code. Throws `RECOVERY_CODE_INVALID` on a typo. */
export async function rootFromRecoveryCode(code: string): Promise<{ keys: RootKeys; secret: RootSecret }> {
  const seed = await seedFromRecoveryCode(code)
  return { keys: await rootKeysFromSeed(seed), secret: { v: 1, signSeed: toBase64url(seed) } }
}

async function rootKeysFromSeed(seed: Bytes): Promise<RootKeys> {
  const signing = await signingKeyFromSeed(seed)
  return { signing, publicKey: toBase64url(signing.publicKey) }
}
