// The phone's one record in IndexedDB: load, save, forget. Used by the pairing screen (save), the inbox
// (load, save a newer roster) and the service worker (load), so it runs in a page and in a worker alike.
// The record is kept as plain data checked by PhoneRecordSchema on every read and write, not as
// non-extractable CryptoKeys: the service worker and the page both rebuild keys from it, and one schema'd
// record is simpler to check and migrate. A browser's storage for an origin is already private to it.
import { PhoneRecordSchema, type PhoneRecord } from './phone-record'

/** The database and store names (one database per origin; the app is the only writer). */
export const PHONE_DB_NAME = 'ask-user-phone'
const STORE = 'home'
const RECORD_KEY = 'record'

/** A refusal of the phone's store; the message says what to do. */
export class PhoneHomeError extends Error {
  override readonly name = 'PhoneHomeError'
  constructor(
    readonly code: 'PHONE_STORE_UNAVAILABLE' | 'PHONE_RECORD_INVALID',
    message: string,
  ) {
    super(message)
  }
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

async function openHome(): Promise<IDBDatabase> {
  const open = indexedDB.open(PHONE_DB_NAME, 1)
  open.onupgradeneeded = () => open.result.createObjectStore(STORE)
  try {
    return await request(open)
  } catch {
    throw new PhoneHomeError(
      'PHONE_STORE_UNAVAILABLE',
      'This browser does not let the app keep data (private browsing?). Open the app in a normal tab or from the home screen.',
    )
  }
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openHome()
  try {
    const tx = db.transaction(STORE, mode)
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve()
      tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
    })
    const result = await request(use(tx.objectStore(STORE)))
    await done
    return result
  } finally {
    db.close()
  }
}

/**
 * The stored phone record, or undefined when this browser holds none (not paired). Throws
 * `PHONE_RECORD_INVALID` when what is stored is not a valid record (damaged: pair again).
 */
export async function loadPhoneRecord(): Promise<PhoneRecord | undefined> {
  const stored: unknown = await withStore('readonly', (store) => store.get(RECORD_KEY))
  if (stored === undefined) return undefined
  const parsed = PhoneRecordSchema.safeParse(stored)
  if (!parsed.success) {
    throw new PhoneHomeError(
      'PHONE_RECORD_INVALID',
      "The phone's stored pairing is damaged; remove this phone on the desktop and pair it again.",
    )
  }
  return parsed.data
}

/** Stores `record` (checked first), replacing any earlier one. */
export async function savePhoneRecord(record: PhoneRecord): Promise<void> {
  const checked = PhoneRecordSchema.parse(record)
  await withStore('readwrite', (store) => store.put(checked, RECORD_KEY))
}

/** Deletes the phone record (the phone forgets its keys and credential; pairing starts over). */
export async function forgetPhoneRecord(): Promise<void> {
  await withStore('readwrite', (store) => store.delete(RECORD_KEY))
}
