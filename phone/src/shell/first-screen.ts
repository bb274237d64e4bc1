// What the phone shows first, decided before the Svelte app mounts: with a stored pairing, the inbox's
// bridge starts dialling the relay here, while the interface's code is still loading (main.ts), rather
// than after it has mounted.
import { loadPhoneRecord } from '../home/phone-home'
import type { PhoneRecord } from '../home/phone-record'
import { startInboxBridge, type InboxBridge } from '../inbox/inbox-bridge'
import { takePairHash } from '../pairing/pair-hash'
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
  const pairing = takePairHash() !== null
  // The stored record is read while the browser's algorithms are probed: both wait on the browser, not
  // on this thread, and the relay is dialled as soon as both are known.
  const stored = pairing ? undefined : readRecord()
  const missing = await missingCrypto(globalThis.crypto?.subtle)
  if (missing.length > 0) return { kind: 'refused', missing }
  const read = await stored
  if (read === undefined) return { kind: 'pairing' }
  if ('damaged' in read) return { kind: 'damaged', reason: read.damaged }
  return read.record
    ? { kind: 'inbox', record: read.record, bridge: startInboxBridge(read.record) }
    : { kind: 'pairing' }
}

/** The stored record (undefined: none), or why it does not read; never rejects. */
function readRecord(): Promise<{ record: PhoneRecord | undefined } | { damaged: string }> {
  return loadPhoneRecord().then(
    (record) => ({ record }),
    (error: unknown) => ({ damaged: error instanceof Error ? error.message : String(error) }),
  )
}
