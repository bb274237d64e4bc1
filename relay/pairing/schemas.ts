// Zod schemas of everything the pairing exchange reads from a person's paste or from the `pair` bucket:
// the one-time offer line, the MAC'd request and the sealed response. The one source of their types.
import { z } from 'zod'
import { Key32Schema, MemberSchema } from '../crypto/schemas'

const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
/** A pairing id: a random 16-byte token, one NATS subject token (no dots). */
export const PairIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a 22-character pairing id')
/** A NATS user public key (nkey), the only key of its own the new device gives for its relay credential. */
export const UserNkeySchema = z.string().regex(/^U[A-Z2-7]{55}$/, 'must be a NATS user public key')

/**
 * What the first desktop hands the new device out of band (the one-time line). Secret as a whole: it
 * holds the 32-byte MAC secret and a bearer credential limited to this pairing's two keys.
 */
export const PairOfferSchema = z.strictObject({
  v: z.literal(1),
  /** The relay URL (already checked by the desktop). */
  url: z.string().min(1).max(2_048),
  /** The root public key the new device pins. */
  rootPublicKey: Key32Schema,
  pairId: PairIdSchema,
  /** 32 random bytes: the request's MAC key and an input of the confirmation code. */
  secret: Key32Schema,
  /** Milliseconds since the epoch. */
  issuedAt: z.int().min(0),
  expiresAt: z.int().min(0),
  /** A NATS `.creds` of the `pair` role named `pairId`: write `req.<pairId>`, read `resp.<pairId>`. */
  creds: z.string().min(1).max(4_096),
})
export type PairOffer = z.infer<typeof PairOfferSchema>

/** A device name as the desktop will show it: no control characters (they could rewrite the terminal). */
export const DeviceNameSchema = z
  .string()
  .min(1)
  .max(100)
  .refine((name) => [...name].every((char) => !isControl(char.codePointAt(0)!)), 'must not contain control characters')

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f)
}

/** The new device's request: its member record (made on the device) and the nkey its credential is minted for. */
export const PairRequestBodySchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('pair-request'),
  pairId: PairIdSchema,
  member: MemberSchema.extend({ name: DeviceNameSchema }),
  nkey: UserNkeySchema,
  /** When the device made it, ms since the epoch. */
  created: z.int().min(0),
})
export type PairRequestBody = z.infer<typeof PairRequestBodySchema>

/** A request as stored at `req.<pairId>`: the body's exact text and HMAC-SHA256(secret, body). */
export const StoredPairRequestSchema = z.strictObject({ body: z.string().max(8_192), mac: Key32Schema })

/**
 * What a desktop hands a joining desktop (`relay connect`) inside the sealed grant, so both can sign
 * rosters, mint credentials, renew and remove: the text of its NATS signing-keys file and of its VAPID
 * file (each checked against its own schema by the receiver before it is stored), and the phone URLs.
 * The operator's own key and the root secret never travel (the root comes from the typed recovery code).
 */
export const DeskSecretsSchema = z.strictObject({
  natsKeys: z.string().min(1).max(16_384),
  vapid: z.string().min(1).max(16_384).optional(),
  websocketUrl: z.string().min(1).max(2_048).optional(),
  appUrl: z.string().min(1).max(2_048).optional(),
})
export type DeskSecrets = z.infer<typeof DeskSecretsSchema>

/** What the desktop seals to the new device: its relay credential and the roster that lists it. */
export const PairGrantSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('pair-grant'),
  pairId: PairIdSchema,
  /** SHA-256 of the stored request bytes this grant answers. */
  request: Key32Schema,
  /** The device's NATS user JWT, minted for the nkey in its request (7 days). */
  jwt: z.string().min(1).max(4_096),
  /** The NATS user name the JWT carries (the device's member id): its inbox prefix is `_INBOX.<natsName>`. */
  natsName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** Seconds since the epoch. */
  credsExpiresAt: z.int().min(0),
  roster: z.strictObject({ bytes: Base64url, signature: Base64url }),
  /** Only in a grant to a joining desktop (its request's member role is `desktop`). */
  desk: DeskSecretsSchema.optional(),
})
export type PairGrant = z.infer<typeof PairGrantSchema>

/** The desktop's reply at `resp.<pairId>`: a grant sealed to the device, or a plain refusal. */
export const StoredPairResponseSchema = z.discriminatedUnion('t', [
  z.strictObject({ v: z.literal(1), t: z.literal('granted'), pairId: PairIdSchema, enc: Base64url, ct: Base64url }),
  z.strictObject({
    v: z.literal(1),
    t: z.literal('declined'),
    pairId: PairIdSchema,
    /** 'cancelled': the person withdrew the offer before any device asked (absent: declined or refused). */
    reason: z.literal('cancelled').optional(),
  }),
])
