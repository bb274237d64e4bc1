// Receipts (agent → devices): how an ask ended, signed by the agent over the exact stored bytes so the
// relay cannot tell a device "delivered" for an ask the agent never took, or name another winner. Not
// encrypted: a receipt says nothing the relay does not already see (which keys were written, and the
// answering device's id in the answer's header).
import { RelayCryptoError } from './errors'
import type { Bytes } from './encoding'
import type { MemberKeys } from './keys'
import { findMember } from './roster'
import { ReceiptSchema, type Receipt, type Roster } from './schemas'
import { readSignedRecord, signedBy, signRecord } from './signed-record'

/** Signs `receipt` as `agent` (its own member id goes in). Returns the bytes to store; `RECEIPT_INVALID` when malformed. */
export async function signReceipt(agent: MemberKeys, receipt: Omit<Receipt, 'v' | 't' | 'agent'>): Promise<Bytes> {
  const signed = await signRecord(agent, ReceiptSchema, { v: 1, t: 'receipt', agent: agent.member.id, ...receipt })
  if (!signed.ok) throw new RelayCryptoError('RECEIPT_INVALID', `cannot sign this receipt: ${signed.issue}`)
  return signed.bytes
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
  const stored = readSignedRecord(storedBytes, ReceiptSchema)
  if (!stored)
    throw new RelayCryptoError('RECEIPT_INVALID', 'the stored receipt is not a receipt envelope; ignoring it')
  const agent = findMember(options.roster, stored.record.agent)
  if (
    // The desktop writes receipts for the local asks it mirrors (see openQuestion).
    (agent?.role !== 'agent' && agent?.role !== 'desktop') ||
    !(await signedBy(agent, stored))
  ) {
    throw new RelayCryptoError(
      'RECEIPT_SIGNATURE',
      'the receipt is not signed by an agent of the roster; ignoring it (the ask stays pending)',
    )
  }
  if (stored.record.kvKey !== options.kvKey)
    throw new RelayCryptoError(
      'RECEIPT_BINDING',
      'the receipt was written for another ask; ignoring it (moved by the relay)',
    )
  return stored.record
}
