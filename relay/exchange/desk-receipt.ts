// How a desk reads an agent's receipt: verified against the roster, bound to the key it is stored under
// and to the agent that asked, before it settles anything.
import type { KvEntry } from '@nats-io/kv'
import { findMember, isRelayCryptoError, openReceipt, type Roster } from '../crypto'
import { askerToken } from './desk-question'
import type { DeskRefusal, RemoteAskSettled } from './desk-types'
import { inboxKey, type parseInboxKey } from './inbox-keys'

/**
 * The settlement the receipt at `entry.key` (`r.<agent>.<askId>`, already parsed as `parts`) stands for,
 * or the refusal to report when it does not verify or was signed by another agent than the asker.
 * Throws only what is not a relay/crypto refusal.
 */
export async function settlementOfReceipt(
  entry: Pick<KvEntry, 'key' | 'value'>,
  parts: NonNullable<ReturnType<typeof parseInboxKey>>,
  roster: Roster,
): Promise<RemoteAskSettled | DeskRefusal> {
  const questionKey = inboxKey('q', parts.agent, parts.askId)
  try {
    const receipt = await openReceipt(entry.value, { roster, kvKey: entry.key })
    const agent = findMember(roster, receipt.agent)
    if (agent === undefined || askerToken(agent) !== parts.agent || receipt.askId !== parts.askId) {
      return {
        key: entry.key,
        code: 'EXCHANGE_INVALID',
        message: 'the receipt is signed by another agent than the one that asked; ignoring it',
      }
    }
    const winner = receipt.winner === undefined ? undefined : findMember(roster, receipt.winner)
    return {
      key: questionKey,
      outcome: receipt.outcome,
      ...(winner ? { winner } : {}),
      ...(receipt.next === undefined ? {} : { next: receipt.next }),
      ...(receipt.pushGone === undefined ? {} : { pushGone: receipt.pushGone }),
    }
  } catch (error) {
    if (!isRelayCryptoError(error)) throw error
    return { key: entry.key, code: error.code, message: error.message }
  }
}
