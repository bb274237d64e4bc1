// The phone's stored record for tests and the bench: what pairing would leave for a `device` member of a
// relay world, and the one way it goes into a page's IndexedDB (as phone/src/home/phone-home.ts keeps it).
import type { PhoneRecord } from '../../phone/src/home/phone-record'
import type { RelayWorld } from '../unit/relay/exchange/relay-world'

/**
 * The record of world member `name` (a device), dialling `url`. Its roster is a placeholder: the desk
 * takes the root-signed roster from the relay and the record's `highestRosterVersion` (1) only bars older ones.
 */
export function phoneRecordOf(
  world: Pick<RelayWorld, 'members' | 'rootPublicKey'>,
  url: string,
  name = 'phone',
): PhoneRecord {
  const member = world.members.get(name)
  if (!member) throw new Error(`the relay world has no member "${name}"`)
  return {
    v: 1,
    url,
    rootPublicKey: world.rootPublicKey,
    secret: member.secret,
    creds: member.creds,
    natsName: name,
    credsExpiresAt: Math.floor(Date.now() / 1000) + 600,
    roster: { bytes: 'AA', signature: 'AA' },
    highestRosterVersion: 1,
  }
}

/** Runs in the page (pass it to `page.evaluate` with the record): stores the record as the app does. */
export function storePhoneRecordInPage(record: unknown): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('ask-user-phone', 1)
    open.onupgradeneeded = () => open.result.createObjectStore('home')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const tx = open.result.transaction('home', 'readwrite')
      tx.objectStore('home').put(record, 'record')
      tx.oncomplete = () => (open.result.close(), resolve())
      tx.onerror = () => reject(tx.error)
    }
  })
}
