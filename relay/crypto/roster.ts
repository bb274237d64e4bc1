// The roster: who may ask (agents) and who may answer (desktops, devices), signed by the person's root
// key over the exact stored bytes. Agents and devices pin the root key at pairing, keep the highest
// version they have seen, and refuse anything unsigned, older or expired: the relay cannot add a device,
// bring back a removed one, or replay an old roster.
import { RelayCryptoError } from './errors'
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes } from './encoding'
import { memberIdFor, type RootKeys } from './keys'
import { RosterSchema, type Member, type Roster, type RosterPush } from './schemas'
import { signBytes, verifyBytes } from './signing'

const DAY_MS = 24 * 60 * 60 * 1000
/** How long a roster is valid after it is signed: 60 days. */
export const ROSTER_LIFETIME_MS = 60 * DAY_MS
/** How long before expiry the desktop warns and renewal is due: 7 days. */
export const ROSTER_RENEW_BEFORE_MS = 7 * DAY_MS

/** A roster as stored on the relay: the exact signed bytes and the root's 64-byte Ed25519 signature. */
export interface SignedRoster {
  readonly bytes: Bytes
  readonly signature: Bytes
}

/**
 * Signs roster `version` listing `members`, valid from `now` (ms since the epoch) for
 * {@link ROSTER_LIFETIME_MS}. Throws `ROSTER_INVALID` when the content would not verify (duplicate or
 * mismatched member ids, too many members), so a bad roster is never published.
 */
export async function signRoster(
  root: RootKeys,
  options: {
    version: number
    members: readonly Member[]
    now: number
    push?: RosterPush | undefined
    /** The member id of the desktop signing (see RosterSchema's `signedBy`). */
    signedBy?: string
  },
): Promise<SignedRoster & { roster: Roster }> {
  const parsed = RosterSchema.safeParse({
    v: 1,
    version: options.version,
    issuedAt: options.now,
    expiresAt: options.now + ROSTER_LIFETIME_MS,
    members: options.members,
    ...(options.push ? { push: options.push } : {}),
    ...(options.signedBy === undefined ? {} : { signedBy: options.signedBy }),
  })
  if (!parsed.success)
    throw new RelayCryptoError(
      'ROSTER_INVALID',
      `refusing to sign a malformed roster: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    )
  await checkMemberIds(parsed.data)
  const bytes = utf8(JSON.stringify(parsed.data))
  return { roster: parsed.data, bytes, signature: await signBytes(root.signing, bytes) }
}

/**
 * The next roster after `previous` (version + 1, a fresh 60-day lifetime), with `members` when given
 * (adding or removing a device) or the same members (the renewal at every desktop start). The push
 * section is `push` when the key is given (`undefined`: none); otherwise it is kept only when the
 * members stay the same, and dropped when they change, so a removed device's subscription and a removed
 * agent's wrapped key never survive a membership change (relay/push re-seals it for the new members).
 */
export async function renewRoster(
  root: RootKeys,
  previous: Roster,
  options: { now: number; members?: readonly Member[]; push?: RosterPush | undefined; signedBy?: string },
): Promise<SignedRoster & { roster: Roster }> {
  const push = 'push' in options ? options.push : options.members === undefined ? previous.push : undefined
  return signRoster(root, {
    version: previous.version + 1,
    members: options.members ?? previous.members,
    now: options.now,
    push,
    ...(options.signedBy === undefined ? {} : { signedBy: options.signedBy }),
  })
}

/**
 * Verifies a stored roster against the pinned root public key (base64url), then parses it. The
 * signature is checked before the content is even decoded. Refuses with:
 * - `ROSTER_SIGNATURE`: not signed by the pinned root key (forged, edited, or another inbox's roster);
 * - `ROSTER_INVALID`: signed but malformed (should never happen; re-sign on the desktop);
 * - `ROSTER_ROLLBACK`: a lower version than `highestSeenVersion` (the relay replays an old roster);
 * - `ROSTER_EXPIRED`: `now` (ms) is at or past `expiresAt` (start the desktop to renew it).
 * The caller stores the returned roster's `version` as its new highest seen version.
 */
export async function verifyRoster(
  storedBytes: Uint8Array,
  storedSignature: Uint8Array,
  pinnedRootKey: string,
  options: { highestSeenVersion: number; now: number },
): Promise<Roster> {
  const roster = await verifyRosterSignature(storedBytes, storedSignature, pinnedRootKey)
  refuseStaleRoster(roster, options)
  return roster
}

/**
 * The version and expiry checks of {@link verifyRoster} on a roster already verified: `ROSTER_ROLLBACK`
 * below `highestSeenVersion`, `ROSTER_EXPIRED` at or past `expiresAt`. For an end that meets the same
 * stored bytes again and need not check their signature twice; time still passes, so expiry is checked.
 */
export function refuseStaleRoster(roster: Roster, options: { highestSeenVersion: number; now: number }): void {
  if (roster.version < options.highestSeenVersion) {
    throw new RelayCryptoError(
      'ROSTER_ROLLBACK',
      `the relay served roster version ${roster.version} after version ${options.highestSeenVersion} was seen; refusing the older roster`,
    )
  }
  if (options.now >= roster.expiresAt) {
    throw new RelayCryptoError(
      'ROSTER_EXPIRED',
      'the roster has expired; start the desktop companion so it renews the roster',
    )
  }
}

/**
 * Only the signature and content checks of {@link verifyRoster} (`KEY_INVALID`, `ROSTER_SIGNATURE`,
 * `ROSTER_INVALID`), not version or expiry. For the desktop re-signing the roster it stored itself,
 * which must stay possible after it expired; a roster read from the relay goes through verifyRoster.
 */
export async function verifyRosterSignature(
  storedBytes: Uint8Array,
  storedSignature: Uint8Array,
  pinnedRootKey: string,
): Promise<Roster> {
  const bytes = ownBytes(storedBytes)
  const signature = ownBytes(storedSignature)
  const rootKey = fromBase64url(pinnedRootKey)
  if (rootKey === undefined || rootKey.byteLength !== 32) {
    throw new RelayCryptoError(
      'KEY_INVALID',
      'the pinned root key is not a 32-byte base64url key; pair again with the desktop',
    )
  }
  if (!(await verifyBytes(rootKey, signature, bytes))) {
    throw new RelayCryptoError(
      'ROSTER_SIGNATURE',
      'the roster is not signed by the pinned root key; ignoring it (the relay or someone else changed it)',
    )
  }
  const text = fromUtf8(bytes)
  const parsed = RosterSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parsed.success)
    throw new RelayCryptoError('ROSTER_INVALID', 'the signed roster is malformed; renew it from the desktop')
  await checkMemberIds(parsed.data)
  return parsed.data
}

/**
 * Where a roster stands at `now` (ms): `fresh`, `renew` (within {@link ROSTER_RENEW_BEFORE_MS} of
 * expiry: the desktop warns and re-signs) or `expired`.
 */
export function rosterRenewal(roster: Roster, now: number): 'fresh' | 'renew' | 'expired' {
  if (now >= roster.expiresAt) return 'expired'
  return now >= roster.expiresAt - ROSTER_RENEW_BEFORE_MS ? 'renew' : 'fresh'
}

/** The roster's member with `id`, or `undefined`. */
export function findMember(roster: Roster, id: string): Member | undefined {
  return roster.members.find((member) => member.id === id)
}

/** The members that answer (role `desktop` or `device`): the recipients of every question. */
export function answeringMembers(roster: Roster): Member[] {
  return roster.members.filter((member) => member.role !== 'agent')
}

// An id must name its own signing key, so one member can never pose as another inside a roster.
async function checkMemberIds(roster: Roster): Promise<void> {
  for (const member of roster.members) {
    if ((await memberIdFor(fromBase64url(member.signPublic)!)) !== member.id) {
      throw new RelayCryptoError(
        'ROSTER_INVALID',
        `member "${member.name}" has an id that does not match its signing key; re-add it`,
      )
    }
  }
}
