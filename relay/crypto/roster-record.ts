// The signed roster as one JSON record: what the desktop keeps in its home (relay-roster.json) and
// publishes at `roster.current`, and what every end reads back before verifying it.
import { z } from 'zod'
import { fromBase64url, ownBytes, toBase64url } from './encoding'
import type { SignedRoster } from './roster'

const Base64url = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

/** The exact root-signed roster bytes and the root's signature, both base64url. */
export const RosterRecordSchema = z.strictObject({ v: z.literal(1), bytes: Base64url, signature: Base64url })
export type RosterRecord = z.infer<typeof RosterRecordSchema>

/** The record of a signed roster. */
export function rosterRecordOf(roster: SignedRoster): RosterRecord {
  return {
    v: 1,
    bytes: toBase64url(ownBytes(roster.bytes)),
    signature: toBase64url(ownBytes(roster.signature)),
  }
}

/** The signed roster a record holds (not yet verified: see verifyRoster). */
export function signedRosterOf(record: RosterRecord): SignedRoster {
  return {
    // Strict decoding; a non-canonical encoding decodes to nothing and then fails verification.
    bytes: fromBase64url(record.bytes) ?? new Uint8Array(0),
    signature: fromBase64url(record.signature) ?? new Uint8Array(0),
  }
}

/** The record as published bytes (UTF-8 JSON). */
export function encodeRosterRecord(roster: SignedRoster): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(rosterRecordOf(roster)))
}

/** The signed roster in published bytes, or `undefined` when they are not a roster record. */
export function parseRosterRecord(value: Uint8Array): SignedRoster | undefined {
  let data: unknown
  try {
    data = JSON.parse(new TextDecoder().decode(value))
  } catch {
    return undefined
  }
  const parsed = RosterRecordSchema.safeParse(data)
  return parsed.success ? signedRosterOf(parsed.data) : undefined
}
