// Presence values (agent → devices): "this agent is still there", signed by the agent over the exact stored
// bytes (its member id, the key it writes and the time), so the relay cannot make a gone agent look alive.
// Not encrypted: presence tells the relay nothing it does not already see (which key was written, when).
import { RelayCryptoError } from './errors'
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes } from './encoding'
import type { MemberKeys } from './keys'
import { findMember } from './roster'
import { PresenceSchema, type Member, type Presence, type Roster } from './schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from './signing'

/** Signs a presence value for `key` (the agent's presence key) at `at` (ms) as `agent`. Returns the bytes to store. */
export async function signPresence(agent: MemberKeys, presence: { key: string; at: number }): Promise<Bytes> {
  const parsed = PresenceSchema.safeParse({ v: 1, t: 'presence', agent: agent.member.id, ...presence })
  if (!parsed.success)
    throw new RelayCryptoError(
      'PRESENCE_INVALID',
      `cannot sign this presence value: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    )
  return signEnvelope(agent.signing, utf8(JSON.stringify(parsed.data)))
}

/**
 * Verifies a stored presence value read from `kvKey` against the verified `roster`: the value and the
 * agent of the roster that signed it. Refuses with `PRESENCE_INVALID` (not a presence envelope),
 * `PRESENCE_SIGNATURE` (not signed by an agent of the roster over these exact bytes) or `PRESENCE_BINDING`
 * (written for another key: moved by the relay).
 */
export async function openPresence(
  storedBytes: Uint8Array,
  options: { roster: Roster; kvKey: string },
): Promise<{ presence: Presence; agent: Member }> {
  const parts = splitEnvelope(ownBytes(storedBytes))
  const text = parts && fromUtf8(parts.content)
  const parsed = PresenceSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parts || !parsed.success)
    throw new RelayCryptoError('PRESENCE_INVALID', 'the stored presence value is not signed; ignoring it')
  const agent = findMember(options.roster, parsed.data.agent)
  if (agent?.role !== 'agent' || !(await verifyBytes(fromBase64url(agent.signPublic)!, parts.signature, parts.content)))
    throw new RelayCryptoError(
      'PRESENCE_SIGNATURE',
      'the presence value is not signed by an agent of the roster; ignoring it (the agent is not counted as there)',
    )
  if (parsed.data.key !== options.kvKey)
    throw new RelayCryptoError(
      'PRESENCE_BINDING',
      'the presence value was written for another key; ignoring it (moved by the relay)',
    )
  return { presence: parsed.data, agent }
}
