// Signed JSON records stored as `content || signature` (receipts, presence values): the shape both read
// and write, so each record type keeps only its own rules (who may sign it, what it is bound to).
import type { z } from 'zod'
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes } from './encoding'
import type { MemberKeys } from './keys'
import type { Member } from './schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from './signing'

/** Signs `record` as `signer` after checking it against `schema`; the schema's first issue when it is not one. */
export async function signRecord<T>(
  signer: MemberKeys,
  schema: z.ZodType<T>,
  record: unknown,
): Promise<{ ok: true; bytes: Bytes } | { ok: false; issue: string }> {
  const parsed = schema.safeParse(record)
  if (!parsed.success) return { ok: false, issue: parsed.error.issues[0]?.message ?? 'invalid' }
  return { ok: true, bytes: await signEnvelope(signer.signing, utf8(JSON.stringify(parsed.data))) }
}

/** A stored record read back: the parsed record and the exact bytes its signature covers. */
export interface StoredRecord<T> {
  record: T
  content: Bytes
  signature: Bytes
}

/** Reads a stored signed record against `schema`; undefined when the bytes are not such an envelope. */
export function readSignedRecord<T>(stored: Uint8Array, schema: z.ZodType<T>): StoredRecord<T> | undefined {
  const parts = splitEnvelope(ownBytes(stored))
  const text = parts && fromUtf8(parts.content)
  const parsed = schema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parts || !parsed.success) return undefined
  return { record: parsed.data, content: parts.content, signature: parts.signature }
}

/** True when `member`'s signing key signed exactly the stored record's content. */
export function signedBy(member: Member, stored: StoredRecord<unknown>): Promise<boolean> {
  return verifyBytes(fromBase64url(member.signPublic)!, stored.signature, stored.content)
}
