// What the phone keeps about itself, in the browser's IndexedDB: everything `relay join` leaves in a
// device's home, in one record. Secret as a whole (its member keys and its relay credential); nothing
// decrypted from a question is ever stored beside it.
import { z } from 'zod'
import { MemberSecretSchema } from '../../../relay/crypto/schemas'

const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

/** The phone's one stored record (version 1). */
export const PhoneRecordSchema = z.strictObject({
  v: z.literal(1),
  /** The relay's WebSocket URL (`wss://…`; `ws://127.0.0.1…` for a relay on the same machine). */
  url: z.string().min(1).max(2_048),
  /** The root public key pinned at pairing (base64url). */
  rootPublicKey: Base64url,
  /** The phone's member keys (HPKE and signing), made on the phone. */
  secret: MemberSecretSchema,
  /** The NATS `.creds` text: the desktop's JWT for the phone's nkey and the nkey seed. */
  creds: z.string().min(1).max(8_192),
  /** The NATS user name in that JWT (the phone's member id): its inbox prefix is `_INBOX.<natsName>`. */
  natsName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** When the credential expires, seconds since the epoch. */
  credsExpiresAt: z.int().min(0),
  /** The newest root-signed roster seen, exactly as stored on the relay. */
  roster: z.strictObject({ bytes: Base64url, signature: Base64url }),
  /** The highest roster version seen (a lower one is a rollback, refused). */
  highestRosterVersion: z.int().min(1),
  /**
   * The highest version of this phone's password record taken (`roster/pw.<phone>`, written by a
   * desktop): a lower one is a rollback, refused. Absent until the first record.
   */
  highestPasswordsVersion: z.int().min(1).optional(),
})
export type PhoneRecord = z.infer<typeof PhoneRecordSchema>
