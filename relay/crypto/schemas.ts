// Zod schemas for everything relay/crypto reads from the relay or from disk: member records, stored
// secrets, the roster, and the inner records of question and answer envelopes. The one source of types.
import { z } from 'zod'
import { fromBase64url } from './encoding'

/** Base64url (no padding, canonical) of exactly `bytes` bytes. */
function base64urlOf(bytes: number) {
  return z.string().refine((text) => fromBase64url(text)?.byteLength === bytes, `must be base64url of ${bytes} bytes`)
}

/** A raw 32-byte key (X25519 public/private, Ed25519 public key or seed) in base64url. */
export const Key32Schema = base64urlOf(32)
/** A SHA-256 digest in base64url. */
export const Sha256Schema = base64urlOf(32)
/** Canonical base64url of any length ≥ 1 (ciphertexts, HPKE encapsulations). */
export const BytesSchema = z
  .string()
  .min(1)
  .refine((text) => fromBase64url(text) !== undefined, 'must be base64url')

/** A member id: base64url of the first 16 bytes of SHA-256(signPublic), so an id names one key. */
export const MemberIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a 22-character member id')
/** An ask id: a random base64url token (no dots, so it is one NATS subject token). */
export const AskIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a 16–64 character base64url token')
/** A KV key as the relay stores it (NATS key characters, no wildcards). */
export const KvKeySchema = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9_\-=/]+(\.[A-Za-z0-9_\-=/]+)*$/, 'must be a NATS KV key')

/** What a member is: the desktop holding the root key, another device that answers, or an agent that asks. */
export const MemberRoleSchema = z.enum(['desktop', 'device', 'agent'])
export type MemberRole = z.infer<typeof MemberRoleSchema>
/** The key suite a member uses; recorded so a P-256 phone can be added later. */
export const MemberSuiteSchema = z.enum(['x25519-ed25519'])

/** A member's public record, as listed in the roster. */
export const MemberSchema = z.strictObject({
  id: MemberIdSchema,
  name: z.string().min(1).max(100),
  role: MemberRoleSchema,
  suite: MemberSuiteSchema,
  hpkePublic: Key32Schema,
  signPublic: Key32Schema,
  /** When the desktop added it to the roster (ms since the epoch); absent for members added before it was recorded. */
  addedAt: z.int().min(0).optional(),
})
export type Member = z.infer<typeof MemberSchema>

/** A member's private keys as stored on its own machine (0600 through core/private-files). */
export const MemberSecretSchema = z.strictObject({
  v: z.literal(1),
  member: MemberSchema,
  hpkePrivate: Key32Schema,
  signSeed: Key32Schema,
})
export type MemberSecret = z.infer<typeof MemberSecretSchema>

/** The root identity's private seed as stored on the first desktop (0600; the recovery code is its backup). */
export const RootSecretSchema = z.strictObject({ v: z.literal(1), signSeed: Key32Schema })
export type RootSecret = z.infer<typeof RootSecretSchema>

/** Most devices one question is sealed to. */
export const MAX_RECIPIENTS = 64

/** Most members one roster lists (devices, desktops and agents together). */
export const ROSTER_MAX_MEMBERS = 256

/** A content key wrapped (HPKE) to one member: `enc` and `key` are the encapsulation and the sealed key. */
export const WrappedKeySchema = z.strictObject({ to: MemberIdSchema, enc: BytesSchema, key: BytesSchema })

/**
 * The roster's push part (relay/push): the VAPID public key in the clear, so a phone can subscribe with
 * it (root-signed, so the relay cannot swap it), and the sealed section holding the VAPID private key and
 * every device's push subscription, its content key wrapped to each agent and desktop of the roster.
 */
export const RosterPushSchema = z.strictObject({
  /** The VAPID public key: an uncompressed P-256 point (65 bytes), the browser's `applicationServerKey`. */
  vapidPublic: base64urlOf(65),
  keys: z.array(WrappedKeySchema).min(1).max(ROSTER_MAX_MEMBERS),
  iv: base64urlOf(12),
  ct: BytesSchema,
})
export type RosterPush = z.infer<typeof RosterPushSchema>

/** The roster's content, signed by the root key. Times are milliseconds since the epoch. */
export const RosterSchema = z
  .strictObject({
    v: z.literal(1),
    version: z.int().min(1),
    issuedAt: z.int().min(0),
    expiresAt: z.int().min(0),
    members: z.array(MemberSchema).max(ROSTER_MAX_MEMBERS),
    /** Web Push (relay/push); absent until the first phone subscribes. */
    push: RosterPushSchema.optional(),
    /**
     * Which desktop of the person signed this version (with the root key every desktop holds), shown in
     * `relay devices`. Informational: verifiers ignore it, and rosters from before it carry none.
     */
    signedBy: MemberIdSchema.optional(),
  })
  .refine((roster) => roster.expiresAt > roster.issuedAt, 'expiresAt must be after issuedAt')
  .refine(
    (roster) => new Set(roster.members.map((member) => member.id)).size === roster.members.length,
    'member ids must be unique',
  )
  .refine(
    (roster) => roster.members.filter((member) => member.role !== 'agent').length <= MAX_RECIPIENTS,
    `at most ${MAX_RECIPIENTS} desktops and devices (every question is sealed to each)`,
  )
export type Roster = z.infer<typeof RosterSchema>

/** A question's header: bound as AAD to every sealed part, and covered by the agent's signature. */
export const QuestionHeaderSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('ask'),
  agent: MemberIdSchema,
  askId: AskIdSchema,
  kvKey: KvKeySchema,
  rosterVersion: z.int().min(1),
  /** The fresh HPKE public key this ask's answer must be sealed to; the agent discards it once answered. */
  replyKey: Key32Schema,
  recipients: z.array(MemberIdSchema).min(1).max(MAX_RECIPIENTS),
})
export type QuestionHeader = z.infer<typeof QuestionHeaderSchema>

/** The signed content of a question envelope: the header's exact text, the wrapped keys, the sealed body. */
export const QuestionContentSchema = z.strictObject({
  header: z.string().max(16_384),
  keys: z
    .array(z.strictObject({ to: MemberIdSchema, enc: BytesSchema, key: BytesSchema }))
    .min(1)
    .max(MAX_RECIPIENTS),
  iv: base64urlOf(12),
  ct: BytesSchema,
})

/** An answer's header: bound as AAD to the sealed answer, and covered by the device's signature. */
export const AnswerHeaderSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('answer'),
  kvKey: KvKeySchema,
  askId: AskIdSchema,
  qHash: Sha256Schema,
  device: MemberIdSchema,
})
export type AnswerHeader = z.infer<typeof AnswerHeaderSchema>

/** The signed content of an answer envelope: the header's exact text and the HPKE-sealed answer. */
export const AnswerContentSchema = z.strictObject({
  header: z.string().max(4_096),
  enc: BytesSchema,
  ct: BytesSchema,
})

/** How an ask ended, as its agent tells every device: answered, withdrawn, expired, or asked again under `next`. */
export const ReceiptOutcomeSchema = z.enum(['delivered', 'withdrawn', 'expired', 'reasked'])
export type ReceiptOutcome = z.infer<typeof ReceiptOutcomeSchema>

/**
 * A receipt, stored at `r.<agent>.<askId>` and signed by the asking agent. `winner` (delivered) is the
 * member whose answer the agent took; `next` (reasked) is the fresh ask that replaces this one after an
 * answer the agent could not verify took the answer key.
 */
export const ReceiptSchema = z
  .strictObject({
    v: z.literal(1),
    t: z.literal('receipt'),
    agent: MemberIdSchema,
    askId: AskIdSchema,
    kvKey: KvKeySchema,
    outcome: ReceiptOutcomeSchema,
    winner: MemberIdSchema.optional(),
    next: AskIdSchema.optional(),
    /**
     * Push subscriptions the push service called gone (404/410) while this ask was notified: the device
     * and the SHA-256 of the endpoint, so the desktop drops exactly that subscription (not a newer one).
     */
    pushGone: z
      .array(z.strictObject({ device: MemberIdSchema, endpoint: Sha256Schema }))
      .min(1)
      .max(MAX_RECIPIENTS)
      .optional(),
  })
  .refine(
    (receipt) => (receipt.outcome === 'delivered') === (receipt.winner !== undefined),
    'a delivered receipt names its winner, and only it',
  )
  .refine(
    (receipt) => (receipt.outcome === 'reasked') === (receipt.next !== undefined),
    'a reasked receipt names the next ask, and only it',
  )
export type Receipt = z.infer<typeof ReceiptSchema>

/**
 * A presence value, stored at `presence.<key>` (the agent's credential name) and signed by the agent: it
 * was there at `at` (its clock, ms since the epoch). Desks count it as contact only once verified.
 */
export const PresenceSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('presence'),
  agent: MemberIdSchema,
  key: KvKeySchema,
  at: z.int().min(0),
})
export type Presence = z.infer<typeof PresenceSchema>
