// The person's account JWT on the relay: re-signed from the current role templates and the revocations so
// far, and pushed through the system account (`$SYS.REQ.CLAIMS.UPDATE`). `relay remove` pushes it to revoke
// a device; every renewal on the first desktop pushes it when the templates changed since the last push,
// so a relay made by an older release gets this release's rights (mirroring, password read-back).
import { createHash } from 'node:crypto'
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import type { UserPermissionsLimits } from '@nats-io/jwt'
import { z } from 'zod'
import { isErrnoCode } from '../../core/private-files'
import type { RelayKeys } from '../nats/keys-file'
import { encodePersonAccount } from '../nats/operator'
import { type Role, ROLES, scopedLimits } from '../nats/templates'
import type { CheckServerOptions } from '../nats/server-version'
import { connectRelay } from '../pairing'
import { RelayHomeError } from './errors'
import { readJson, saveJson } from './state'

/** The home's record of the account JWT last pushed: a digest of its templates and revocations (0600). */
export const ACCOUNT_PUSH_FILE = 'relay-account.json'

const AccountPushSchema = z.strictObject({
  v: z.literal(1),
  /** sha256 (hex) of what the pushed JWT grants: each role's template and the revocations. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
})

/** Each role's template as signed into the account JWT; tests pass an older one to make an older relay. */
export type RoleLimits = (role: Role) => Partial<UserPermissionsLimits>

/** The options of {@link pushPersonAccount}. */
export interface AccountPushOptions {
  server: CheckServerOptions
  /** Test-only: the templates to sign instead of this release's (relay/nats scopedLimits). */
  limits?: RoleLimits
}

const ClaimsUpdateReplySchema = z
  .object({ data: z.object({ code: z.number() }).passthrough().optional(), error: z.unknown().optional() })
  .passthrough()

/** What the account JWT grants, as a digest: equal digests mean the server needs no push. */
export function accountDigest(revocations: Record<string, number>, limits: RoleLimits = scopedLimits): string {
  const revoked = Object.keys(revocations)
    .sort()
    .map((key) => [key, revocations[key]])
  const grants = JSON.stringify({ roles: ROLES.map((role) => [role, limits(role)]), revoked })
  return createHash('sha256').update(grants).digest('hex')
}

/**
 * Re-signs the person's account JWT with `revocations` (user public key → seconds since the epoch) and
 * pushes it; when the server took it, records its digest in `home`. Resolves whether the server took it;
 * rejects with the connection's error when the relay cannot be reached.
 */
export async function pushPersonAccount(
  home: string,
  url: string,
  keys: RelayKeys,
  revocations: Record<string, number>,
  options: AccountPushOptions,
): Promise<boolean> {
  const limits = options.limits ?? scopedLimits
  const jwt = await encodePersonAccount(
    keys.accountPublicKey,
    keys.operatorSigningSeed,
    keys.roleSigningSeeds,
    revocations,
    limits,
  )
  const nc = await connectRelay(url, keys.systemUserCreds, 'ask-user-sys', options.server)
  let taken: boolean
  try {
    const reply = await nc.request('$SYS.REQ.CLAIMS.UPDATE', jwt, { timeout: 5_000 })
    const parsed = ClaimsUpdateReplySchema.safeParse(JSON.parse(new TextDecoder().decode(reply.data)))
    taken = parsed.success && parsed.data.error === undefined && parsed.data.data?.code === 200
  } finally {
    await nc.close()
  }
  if (taken) await recordAccountPush(home, revocations, limits)
  return taken
}

/**
 * Records in `home` that the relay holds the account JWT granting `limits` with `revocations`: after a
 * push the server took, and at `relay init`, which writes this release's account JWT (no revocations)
 * into the server's config itself, so the first renewal finds nothing to push.
 */
export async function recordAccountPush(
  home: string,
  revocations: Record<string, number>,
  limits: RoleLimits = scopedLimits,
): Promise<void> {
  await saveJson(home, ACCOUNT_PUSH_FILE, AccountPushSchema, { v: 1, digest: accountDigest(revocations, limits) })
}

const AccountClaimsSchema = z.object({
  nats: z.object({ revocations: z.record(z.string(), z.number()).optional() }).passthrough(),
})

/**
 * The revocations in the account JWT the server holds now (full resolver lookup through the system
 * account). Rejects when the server does not answer with a readable account JWT.
 */
export async function serverRevocations(
  url: string,
  keys: RelayKeys,
  server: CheckServerOptions,
): Promise<Record<string, number>> {
  const nc = await connectRelay(url, keys.systemUserCreds, 'ask-user-sys', server)
  try {
    const reply = await nc.request(`$SYS.REQ.ACCOUNT.${keys.accountPublicKey}.CLAIMS.LOOKUP`, '', { timeout: 5_000 })
    const payload = reply.string().split('.')[1] ?? ''
    let claims: unknown
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    } catch {
      claims = undefined
    }
    const parsed = AccountClaimsSchema.safeParse(claims)
    if (!parsed.success)
      throw new RelayHomeError(
        'RELAY_ACCOUNT_REFUSED',
        "The relay did not return the person's account JWT, so it was not updated; check that nats-server runs with `resolver: full` as `relay init` wrote it, then run `ask-user relay renew`.",
      )
    return parsed.data.nats.revocations ?? {}
  } finally {
    await nc.close()
  }
}

/**
 * Pushes the account JWT only when what it grants differs from the last push recorded in `home` (a home
 * with no record, made before this release, pushes once). The revocations pushed are this home's and the
 * server's together, so a home restored from an older backup never lifts a revocation. Resolves whether
 * it pushed; rejects as {@link pushPersonAccount}, and with `RELAY_ACCOUNT_REFUSED` when the server did
 * not return its account JWT or refused the push.
 */
export async function pushAccountIfChanged(
  home: string,
  url: string,
  keys: RelayKeys,
  homeRevocations: Record<string, number>,
  options: AccountPushOptions,
): Promise<boolean> {
  const revocations = { ...homeRevocations }
  for (const [user, at] of Object.entries(await serverRevocations(url, keys, options.server)))
    revocations[user] = Math.max(at, revocations[user] ?? 0)
  const last = (await hasRecord(home)) ? (await readJson(home, ACCOUNT_PUSH_FILE, AccountPushSchema)).digest : undefined
  if (last === accountDigest(revocations)) return false
  if (!(await pushPersonAccount(home, url, keys, revocations, options))) {
    throw new RelayHomeError(
      'RELAY_ACCOUNT_REFUSED',
      "The relay refused this desktop's account update, so this release's rights (mirroring local asks, password read-back) are not on it yet; check that nats-server runs in operator mode with the config `relay init` wrote, then run `ask-user relay renew`.",
    )
  }
  return true
}

async function hasRecord(home: string): Promise<boolean> {
  try {
    await lstat(join(home, ACCOUNT_PUSH_FILE))
    return true
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return false
    throw error
  }
}
