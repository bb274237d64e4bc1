// Receipts (agent → devices): how an ask ended, signed by the agent over the exact stored bytes so the
// relay cannot tell a device "delivered" for an ask the agent never took, or name another winner. Not
// encrypted: a receipt says nothing the relay does not already see (which keys were written, and the
// answering device's id in the answer's header).
import { RelayCryptoError } from './errors'
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes } from './encoding'
import type { MemberKeys } from './keys'
import { findMember } from './roster'
import { ReceiptSchema, type Receipt, type Roster } from './schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from './signing'

/** Signs `receipt` as `agent` (its own member id goes in). Returns the bytes to store; `RECEIPT_INVALID` when malformed. */
export async function signReceipt(agent: MemberKeys, receipt: Omit<Receipt, 'v' | 't' | 'agent'>): Promise<Bytes> {
  const parsed = ReceiptSchema.safeParse({ v: 1, t: 'receipt', agent: agent.member.id, ...receipt })
  if (!parsed.success)
    throw new RelayCryptoError(
      'RECEIPT_INVALID',
      `cannot sign this receipt: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    )
  return signEnvelope(agent.signing, utf8(JSON.stringify(parsed.data)))
}

/**
 * Verifies a stored receipt read from `kvKey` against the verified `roster`. Refuses with
 * `RECEIPT_INVALID` (not a receipt), `RECEIPT_SIGNATURE` (not signed by an agent of the roster over these
 * exact bytes) or `RECEIPT_BINDING` (written for another key: moved by the relay).
 */
export async function openReceipt(
  storedBytes: Uint8Array,
  options: { roster: Roster; kvKey: string },
): Promise<Receipt> {
  const parts = splitEnvelope(ownBytes(storedBytes))
  const text = parts && fromUtf8(parts.content)
  const parsed = ReceiptSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parts || !parsed.success)
    throw new RelayCryptoError('RECEIPT_INVALID', 'the stored receipt is not a receipt envelope; ignoring it')
  const agent = findMember(options.roster, parsed.data.agent)
  if (
    // The desktop writes receipts for the local asks it mirrors (see openQuestion).
    (agent?.role !== 'agent' && agent?.role !== 'desktop') ||
    !(await verifyBytes(fromBase64url(agent.signPublic)!, parts.signature, parts.content))
  ) {
    throw new RelayCryptoError(
      'RECEIPT_SIGNATURE',
      'the receipt is not signed by an agent of the roster; ignoring it (the ask stays pending)',
    )
  }
  if (parsed.data.kvKey !== options.kvKey)
    throw new RelayCryptoError(
      'RECEIPT_BINDING',
      'the receipt was written for another ask; ignoring it (moved by the relay)',
    )
  return parsed.data
}
