import { Algorithms, encodeAccount, encodeOperator, encodeUser, fmtCreds, newScopedSigner } from '@nats-io/jwt'
import { createAccount, createOperator, createUser, fromSeed, type KeyPair } from '@nats-io/nkeys'
import type { UserPermissionsLimits } from '@nats-io/jwt'
import { ROLES, scopedLimits, type Role } from './templates'

/**
 * The self-hosted relay's identities (RELAY.md §4.2, §4.10): an operator, the person's account with one
 * scoped signing key per role, and the system account the desktop pushes account updates through.
 */

const text = new TextDecoder()
const seedOf = (kp: KeyPair): string => text.decode(kp.getSeed())

// @nats-io/jwt 0.0.11 turns every account limit left out into 0 ("maximum account active connections
// exceeded"), so each one is set, -1 meaning unlimited; JetStream is on only when its limits are not 0.
const UNLIMITED_ACCOUNT = {
  subs: -1,
  data: -1,
  payload: -1,
  imports: -1,
  exports: -1,
  wildcards: true,
  conn: -1,
  leaf: -1,
  mem_storage: -1,
  disk_storage: -1,
  streams: -1,
  consumer: -1,
  max_ack_pending: -1,
  mem_max_stream_bytes: -1,
  disk_max_stream_bytes: -1,
  max_bytes_required: false,
}
const SYSTEM_ACCOUNT_LIMITS = { ...UNLIMITED_ACCOUNT, mem_storage: 0, disk_storage: 0, streams: 0, consumer: 0 }

/** Everything `generateIdentities` makes: the seeds are secrets, the JWTs and public keys are not. */
export interface RelayIdentities {
  operatorSeed: string
  operatorJwt: string
  /** Signs account JWTs (updates, revocations); the operator's own seed stays offline. */
  operatorSigningSeed: string
  accountSeed: string
  accountPublicKey: string
  accountJwt: string
  systemAccountSeed: string
  systemAccountPublicKey: string
  systemAccountJwt: string
  /** A user of the system account, for `$SYS.REQ.CLAIMS.UPDATE` pushes. */
  systemUserCreds: string
  /** The scoped signing key seed of each role. */
  roleSigningSeeds: Record<Role, string>
}

/**
 * Signs the person's account JWT: unlimited, JetStream on, one scoped signing key per role with its
 * template (`limits`: this release's; tests pass an older release's).
 */
export async function encodePersonAccount(
  accountPublicKey: string,
  operatorSigningSeed: string,
  roleSigningSeeds: Record<Role, string>,
  revocations: Record<string, number> = {},
  limits: (role: Role) => Partial<UserPermissionsLimits> = scopedLimits,
): Promise<string> {
  const signingKeys = ROLES.map((role) =>
    newScopedSigner(fromSeed(new TextEncoder().encode(roleSigningSeeds[role])), role, limits(role)),
  )
  return encodeAccount(
    'ask-user',
    accountPublicKey,
    { limits: UNLIMITED_ACCOUNT, signing_keys: signingKeys, revocations },
    { algorithm: Algorithms.v2, signer: operatorSigningSeed },
  )
}

/** Makes fresh operator, account, system-account and role signing keys, and signs their JWTs. */
export async function generateIdentities(): Promise<RelayIdentities> {
  const operator = createOperator()
  const operatorSigning = createOperator()
  const account = createAccount()
  const system = createAccount()
  const roleSigningSeeds = Object.fromEntries(ROLES.map((role) => [role, seedOf(createAccount())])) as Record<
    Role,
    string
  >

  const operatorJwt = await encodeOperator(
    'ask-user-relay',
    operator,
    { signing_keys: [operatorSigning.getPublicKey()], system_account: system.getPublicKey() },
    { algorithm: Algorithms.v2 },
  )
  const systemAccountJwt = await encodeAccount(
    'SYS',
    system.getPublicKey(),
    { limits: SYSTEM_ACCOUNT_LIMITS },
    { algorithm: Algorithms.v2, signer: operatorSigning },
  )
  const sysUser = createUser()
  const sysUserJwt = await encodeUser('ask-user-desktop-sys', sysUser, system, {}, { algorithm: Algorithms.v2 })
  return {
    operatorSeed: seedOf(operator),
    operatorJwt,
    operatorSigningSeed: seedOf(operatorSigning),
    accountSeed: seedOf(account),
    accountPublicKey: account.getPublicKey(),
    accountJwt: await encodePersonAccount(account.getPublicKey(), seedOf(operatorSigning), roleSigningSeeds),
    systemAccountSeed: seedOf(system),
    systemAccountPublicKey: system.getPublicKey(),
    systemAccountJwt,
    systemUserCreds: text.decode(fmtCreds(sysUserJwt, sysUser)),
    roleSigningSeeds,
  }
}
