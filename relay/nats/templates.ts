import type { ConnectionType, UserPermissionsLimits } from '@nats-io/jwt'

/**
 * The relay's buckets and the user-JWT templates of its scoped signing keys (RELAY.md §4.2). The server
 * expands `{{name()}}` to the user JWT's `name` claim, and only as a whole token, so every name is one
 * base64url token (no dots, no wildcards). These templates are the single source for minting
 * credentials (operator.ts signs them into the account JWT) and for the permission matrix.
 */

/** The KV buckets, by role in the design. */
export const BUCKETS = {
  inbox: 'inbox',
  roster: 'roster',
  presence: 'presence',
  pair: 'pair',
  /** Answers sealed to a one-time key the agent put in the question; short-lived (10 min). */
  secret: 'secret',
} as const

/**
 * A device's renewed credential lives in the `roster` bucket at `cred.<its NATS name>` (the desktop
 * writes every one, each device reads only its own), so renewals need no bucket of their own.
 */
export const CREDENTIAL_KEY_PREFIX = 'cred'

/**
 * A device's Web Push subscription record lives in the `roster` bucket at `sub.<its NATS name>` (its
 * member id): the device writes only its own, the desktop reads every one (relay/push/subscription.ts).
 */
export const SUBSCRIPTION_KEY_PREFIX = 'sub'

/**
 * The desktops' shared credential records (relay/home/desk-records.ts: each device's nkey and the revoked
 * users) live in the `roster` bucket at this key, sealed to every desktop of the roster and signed by the
 * desktop that wrote them: only desktops read or write it.
 */
export const DESK_RECORDS_KEY = 'desk-records'

/**
 * Which remote agents a device (a phone) may answer password questions for lives in the `roster` bucket
 * at `pw.<its NATS name>` (relay/home/passwords-record.ts): only desktops write one (and may read any,
 * sealed to its device as it is), each device reads only its own.
 */
export const PASSWORDS_KEY_PREFIX = 'pw'

/** The roles a scoped signing key exists for. */
export const ROLES = ['agent', 'device', 'desktop', 'pair'] as const
export type Role = (typeof ROLES)[number]

const SELF = '{{name()}}'
const JS = '$JS.API'

/** Read one key (direct get, `allow_direct` buckets only) and watch it (extended consumer create only). */
function readKeys(bucket: string, keyPattern: string): string[] {
  const stream = `KV_${bucket}`
  return [
    `${JS}.DIRECT.GET.${stream}.$KV.${bucket}.${keyPattern}`,
    // Never the bare `$JS.API.CONSUMER.CREATE.<stream>`: its filter is in the body and cannot be scoped
    // (RELAY.md §3.2 measured one agent reading another's answer through it).
    `${JS}.CONSUMER.CREATE.${stream}.*.$KV.${bucket}.${keyPattern}`,
    `${JS}.CONSUMER.DELETE.${stream}.*`,
  ]
}

/** Publish and subscribe allow-lists of a role, before `{{name()}}` expansion. */
export interface RoleTemplate {
  pub: string[]
  sub: string[]
  connectionTypes: ConnectionType[]
  /** The longest credential the desktop may mint for this role, in seconds. */
  maxTtlSeconds: number
}

const DAY = 86_400

const AGENT: RoleTemplate = {
  pub: [
    `$KV.inbox.q.${SELF}.*`,
    `$KV.inbox.r.${SELF}.*`,
    `$KV.presence.${SELF}`,
    ...readKeys('inbox', `q.${SELF}.*`),
    `${JS}.DIRECT.GET.KV_inbox.$KV.inbox.a.${SELF}.*`,
    `${JS}.CONSUMER.CREATE.KV_inbox.*.$KV.inbox.a.${SELF}.>`,
    `${JS}.DIRECT.GET.KV_secret.$KV.secret.a.${SELF}.*`,
    `${JS}.CONSUMER.CREATE.KV_secret.*.$KV.secret.a.${SELF}.>`,
    `${JS}.CONSUMER.DELETE.KV_secret.*`,
    ...readKeys('roster', 'current'),
    `${JS}.INFO`,
  ],
  sub: [`_INBOX.${SELF}.>`],
  connectionTypes: ['STANDARD', 'WEBSOCKET'],
  maxTtlSeconds: 30 * DAY,
}

const DEVICE: RoleTemplate = {
  pub: [
    `$KV.inbox.a.*.*`,
    `$KV.secret.a.*.*`,
    // Read back only when a create() found the key taken (who answered first); the value is sealed to the agent.
    `${JS}.DIRECT.GET.KV_secret.$KV.secret.a.*.*`,
    ...readKeys('inbox', '>'),
    ...readKeys('roster', 'current'),
    // Its renewed credential, written by the desktop and sealed to it: only this device reads it.
    `${JS}.DIRECT.GET.KV_roster.$KV.roster.${CREDENTIAL_KEY_PREFIX}.${SELF}`,
    ...readKeys('presence', '*'),
    // The agents it may answer passwords for, written by a desktop and sealed to it: only its own record.
    ...readKeys('roster', `${PASSWORDS_KEY_PREFIX}.${SELF}`),
    // Its Web Push subscription, sealed to the desktops (relay/push): only its own key.
    `$KV.roster.${SUBSCRIPTION_KEY_PREFIX}.${SELF}`,
    `${JS}.INFO`,
  ],
  sub: [`_INBOX.${SELF}.>`],
  connectionTypes: ['STANDARD', 'WEBSOCKET'],
  // Device credentials are short-lived and renewed by the desktop (issue: 7 days).
  maxTtlSeconds: 7 * DAY,
}

const DESKTOP: RoleTemplate = {
  pub: [
    ...DEVICE.pub,
    // "Mirror local asks" (core/relay-bridge/mirror.ts): the desktop asks for its own local agents under
    // its own name only, as an agent does (its question and receipt keys); it already reads every answer.
    `$KV.inbox.q.${SELF}.*`,
    `$KV.inbox.r.${SELF}.*`,
    // ... and keeps its presence fresh while they wait, so the other desks do not mark them unreachable.
    `$KV.presence.${SELF}`,
    `$KV.roster.current`,
    `$KV.roster.${CREDENTIAL_KEY_PREFIX}.*`,
    // The desktops' shared credential records, written with a compare-and-set on their revision.
    `$KV.roster.${DESK_RECORDS_KEY}`,
    ...readKeys('roster', DESK_RECORDS_KEY),
    // Every device's password setting ("Allow passwords from this agent … also on my phone"), and whether
    // the relay still holds it (a start writes a lost one again: relay/home/restore-device-passwords.ts).
    `$KV.roster.${PASSWORDS_KEY_PREFIX}.*`,
    `${JS}.DIRECT.GET.KV_roster.$KV.roster.${PASSWORDS_KEY_PREFIX}.*`,
    // Every device's push subscription record, read and watched to seal it into the roster's push section.
    ...readKeys('roster', `${SUBSCRIPTION_KEY_PREFIX}.*`),
    `$KV.pair.*.*`,
    ...readKeys('pair', '*.*'),
  ],
  sub: [`_INBOX.${SELF}.>`],
  connectionTypes: ['STANDARD'],
  maxTtlSeconds: 7 * DAY,
}

// A pairing line's bearer credential, named by the pairing id: it writes the request and reads the
// reply of that one pairing, nothing else, and lives only as long as the line (RELAY.md §4.5).
const PAIR: RoleTemplate = {
  pub: [
    `$KV.pair.req.${SELF}`,
    `${JS}.DIRECT.GET.KV_pair.$KV.pair.resp.${SELF}`,
    `${JS}.CONSUMER.CREATE.KV_pair.*.$KV.pair.resp.${SELF}`,
    `${JS}.CONSUMER.DELETE.KV_pair.*`,
    `${JS}.INFO`,
  ],
  sub: [`_INBOX.${SELF}.>`],
  connectionTypes: ['STANDARD', 'WEBSOCKET'],
  maxTtlSeconds: 10 * 60,
}

/** The template of every role. Frozen: a caller cannot widen a role at run time. */
export const ROLE_TEMPLATES: Readonly<Record<Role, Readonly<RoleTemplate>>> = Object.freeze({
  agent: Object.freeze(AGENT),
  device: Object.freeze(DEVICE),
  desktop: Object.freeze(DESKTOP),
  pair: Object.freeze(PAIR),
})

/** The template in the shape `@nats-io/jwt`'s `newScopedSigner` signs into the account JWT. */
export function scopedLimits(role: Role): Partial<UserPermissionsLimits> {
  const t = ROLE_TEMPLATES[role]
  return {
    pub: { allow: [...t.pub], deny: [] },
    sub: { allow: [...t.sub], deny: [] },
    allowed_connection_types: [...t.connectionTypes],
    bearer_token: false,
  }
}

/** A role's allow-lists with `{{name()}}` replaced by `name`: what the server enforces for that user. */
export function expandTemplate(role: Role, name: string): { pub: string[]; sub: string[] } {
  const t = ROLE_TEMPLATES[role]
  const expand = (s: string): string => s.split(SELF).join(name)
  return { pub: t.pub.map(expand), sub: t.sub.map(expand) }
}

/** The inbox prefix a client of `name` must use (`inboxPrefix` option), the only one its credential may read. */
export function inboxPrefixFor(name: string): string {
  return `_INBOX.${name}`
}
