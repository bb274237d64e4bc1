// Presence values (agent → devices): "this agent is still there", signed by the agent over the exact stored
// bytes (its member id, the key it writes and the time), so the relay cannot make a gone agent look alive.
// Not encrypted: presence tells the relay nothing it does not already see (which key was written, when).
import { RelayCryptoError } from './errors'
import type { Bytes } from './encoding'
import type { MemberKeys } from './keys'
import { findMember } from './roster'
import { PresenceSchema, type Member, type Presence, type Roster } from './schemas'
import { readSignedRecord, signedBy, signRecord } from './signed-record'

/** Signs a presence value for `key` (the agent's presence key) at `at` (ms) as `agent`. Returns the bytes to store. */
export async function signPresence(agent: MemberKeys, presence: { key: string; at: number }): Promise<Bytes> {
  const signed = await signRecord(agent, PresenceSchema, { v: 1, t: 'presence', agent: agent.member.id, ...presence })
  if (!signed.ok) throw new RelayCryptoError('PRESENCE_INVALID', `cannot sign this presence value: ${signed.issue}`)
  return signed.bytes
}

/**
 * Verifies a stored presence value read from `kvKey` against the verified `roster`: the value and the
 * agent of the roster that signed it. Refuses with `PRESENCE_INVALID` (not a presence envelope),
 * `PRESENCE_SIGNATURE` (not signed by an agent, or the desktop, of the roster over these exact bytes) or `PRESENCE_BINDING`
 * (written for another key: moved by the relay).
 */
export async function openPresence(
  storedBytes: Uint8Array,
  options: { roster: Roster; kvKey: string },
): Promise<{ presence: Presence; agent: Member }> {
  const stored = readSignedRecord(storedBytes, PresenceSchema)
  if (!stored) throw new RelayCryptoError('PRESENCE_INVALID', 'the stored presence value is not signed; ignoring it')
  const agent = findMember(options.roster, stored.record.agent)
  // The desktop writes presence for the local asks it mirrors, as it writes their receipts.
  if ((agent?.role !== 'agent' && agent?.role !== 'desktop') || !(await signedBy(agent, stored)))
    throw new RelayCryptoError(
      'PRESENCE_SIGNATURE',
      'the presence value is not signed by an agent of the roster; ignoring it (the agent is not counted as there)',
    )
  if (stored.record.key !== options.kvKey)
    throw new RelayCryptoError(
      'PRESENCE_BINDING',
      'the presence value was written for another key; ignoring it (moved by the relay)',
    )
  return { presence: stored.record, agent }
}
