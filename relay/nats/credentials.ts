import { Algorithms, encodeUser, fmtCreds } from '@nats-io/jwt'
import { createUser, fromSeed } from '@nats-io/nkeys'
import { RelayNatsError } from './errors'
import { ROLE_TEMPLATES, type Role } from './templates'

/**
 * Scoped, expiring NATS user credentials (RELAY.md §4.8). A user JWT signed by a role's scoped signing
 * key carries no permissions of its own: the server applies the role's template, so a credential cannot
 * exceed its role even if this code were wrong about the claims.
 */

/** A name is one base64url token: `{{name()}}` expands only as a whole token, and a dot would add levels. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** Refuses a name that is not one base64url token of 1–64 characters (`RELAY_BAD_NAME`). */
export function checkName(name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new RelayNatsError(
      'RELAY_BAD_NAME',
      'A relay name must be 1-64 letters, digits, "-" or "_" (no dots or spaces); pick another name.',
    )
  }
}

/** Parses a TTL like `90s`, `30m`, `12h`, `7d` into seconds (`RELAY_BAD_TTL` otherwise). */
export function parseTtl(ttl: string): number {
  const match = /^([1-9][0-9]{0,6})(s|m|h|d)$/.exec(ttl)
  if (!match)
    throw new RelayNatsError('RELAY_BAD_TTL', `"${ttl}" is not a duration; write it like 90s, 30m, 12h or 7d.`)
  const unit = { s: 1, m: 60, h: 3_600, d: 86_400 }[match[2] as 's' | 'm' | 'h' | 'd']
  return Number(match[1]) * unit
}

/** A minted credential: the `.creds` text (JWT + seed, a secret: write it 0600) and public facts about it. */
export interface MintedCredential {
  /** The NATS `.creds` file content. Secret. */
  creds: string
  userPublicKey: string
  /** The JWT `name` claim, which `{{name()}}` expands to. */
  name: string
  role: Role
  /** Seconds since the epoch. */
  expiresAt: number
}

/** What minting needs: the account's public key and the role's scoped signing seed; `now` in ms for tests. */
export interface RoleSigner {
  accountPublicKey: string
  signingSeed: string
  now?: () => number
}

/**
 * Mints a credential of `role` for `name` valid `ttlSeconds` from now (1 s up to the role's maximum:
 * agents 30 days, devices and desktops 7 days). Throws `RELAY_BAD_NAME` or `RELAY_BAD_TTL`.
 */
export async function mintRoleCredential(
  signer: RoleSigner,
  role: Role,
  name: string,
  ttlSeconds: number,
): Promise<MintedCredential> {
  checkName(name)
  const user = createUser()
  const { jwt, expiresAt } = await mintRoleJwt(signer, role, name, user.getPublicKey(), ttlSeconds)
  return {
    creds: new TextDecoder().decode(fmtCreds(jwt, user)),
    userPublicKey: user.getPublicKey(),
    name,
    role,
    expiresAt,
  }
}

/**
 * Mints only the user JWT of `role` for a NATS user key made elsewhere (`userPublicKey`, `U…`): a paired
 * device keeps its own nkey seed and never sends it. Same limits and refusals as {@link mintRoleCredential}.
 */
export async function mintRoleJwt(
  signer: RoleSigner,
  role: Role,
  name: string,
  userPublicKey: string,
  ttlSeconds: number,
): Promise<{ jwt: string; expiresAt: number }> {
  checkName(name)
  const max = ROLE_TEMPLATES[role].maxTtlSeconds
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > max) {
    throw new RelayNatsError(
      'RELAY_BAD_TTL',
      `A ${role} credential lives 1 s to ${max / 86_400} days; pick a shorter TTL and renew it.`,
    )
  }
  const nowSeconds = Math.floor((signer.now?.() ?? Date.now()) / 1000)
  const jwt = await encodeUser(
    name,
    userPublicKey,
    signer.accountPublicKey,
    {},
    {
      algorithm: Algorithms.v2,
      scopedUser: true,
      signer: fromSeed(new TextEncoder().encode(signer.signingSeed)),
      exp: nowSeconds + ttlSeconds,
    },
  )
  return { jwt, expiresAt: nowSeconds + ttlSeconds }
}

/** An agent's credential: asks under its own name, reads only its own answers. */
export function mintAgentCredential(signer: RoleSigner, name: string, ttlSeconds: number): Promise<MintedCredential> {
  return mintRoleCredential(signer, 'agent', name, ttlSeconds)
}

/** A device's (or the desktop's) credential: answers any ask; only `desktop` writes the roster. */
export function mintDeviceCredential(
  signer: RoleSigner,
  name: string,
  role: 'device' | 'desktop',
  ttlSeconds: number,
): Promise<MintedCredential> {
  return mintRoleCredential(signer, role, name, ttlSeconds)
}

/**
 * An unscoped credential signed by the account's own key, for setup only (making the buckets). It can
 * do anything in the account, so it is minted for minutes, used, and dropped; the account seed stays offline.
 */
export async function mintAdminCredential(
  accountSeed: string,
  ttlSeconds: number,
  now: () => number = Date.now,
): Promise<string> {
  const user = createUser()
  const account = fromSeed(new TextEncoder().encode(accountSeed))
  const jwt = await encodeUser(
    'ask-user-admin',
    user,
    account,
    {},
    { algorithm: Algorithms.v2, exp: Math.floor(now() / 1000) + ttlSeconds },
  )
  return new TextDecoder().decode(fmtCreds(jwt, user))
}
