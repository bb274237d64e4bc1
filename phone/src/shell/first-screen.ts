// What the phone shows first, decided before the Svelte app mounts: with a stored pairing, the inbox's
// bridge starts dialling the relay here, while the interface's code is still loading (main.ts), rather
// than after it has mounted.
import { loadPhoneRecord } from '../home/phone-home'
import type { PhoneRecord } from '../home/phone-record'
import { startInboxBridge, type InboxBridge } from '../inbox/inbox-bridge'
import { takePairFragment } from '../pairing/pair-fragment'
import { missingCrypto } from './baseline'

/** The shell's first screen; the inbox comes with its bridge already dialling. */
export type FirstScreen =
  | { kind: 'refused'; missing: string[] }
  | { kind: 'damaged'; reason: string }
  | { kind: 'pairing' }
  | { kind: 'inbox'; record: PhoneRecord; bridge: InboxBridge }

/**
 * Decides the first screen: `refused` when the browser lacks the keys' algorithms (nothing is started),
 * `pairing` when a pairing link was opened (it wins over a stored pairing: the person is pairing this
 * phone again) or nothing is paired, `damaged` when the stored record does not read, else `inbox`.
 */
export async function decideFirstScreen(): Promise<FirstScreen> {
  const missing = await missingCrypto(globalThis.crypto?.subtle)
  if (missing.length > 0) return { kind: 'refused', missing }
  if (takePairFragment().kind !== 'none') return { kind: 'pairing' }
  let record: PhoneRecord | undefined
  try {
    record = await loadPhoneRecord()
  } catch (error) {
    return { kind: 'damaged', reason: error instanceof Error ? error.message : String(error) }
  }
  return record ? { kind: 'inbox', record, bridge: startInboxBridge(record) } : { kind: 'pairing' }
}
