// The phone's whole pairing: the join exchange over WebSocket, then the phone record stored, so the
// inbox and the service worker find the keys, the credential and the pinned root key.
import { toBase64url } from '../../../relay/crypto/encoding'
import { joinPairingWith } from '../../../relay/pairing/join-exchange'
import type { RelayConnect } from '../../../relay/pairing/relay-kv'
import type { PairOffer } from '../../../relay/pairing/schemas'
import type { PhoneRecord } from '../home/phone-record'

/** What {@link joinAsPhone} needs: the person's name for the phone, where to show the code, how to dial and store. */
export interface JoinAsPhoneOptions {
  name: string
  showCode: (code: string) => void
  connect: RelayConnect
  save: (record: PhoneRecord) => Promise<void>
  now?: () => number
}

/**
 * Pairs this phone with `offer` and stores its record through `save`; resolves with the record. Refuses
 * with the join exchange's `RELAY_PAIR_*` codes or the connect function's error; nothing is stored
 * unless the desktop granted and the grant's roster verified against the offer's root key.
 */
export async function joinAsPhone(offer: PairOffer, options: JoinAsPhoneOptions): Promise<PhoneRecord> {
  const joined = await joinPairingWith(offer, options)
  const record: PhoneRecord = {
    v: 1,
    url: offer.url,
    rootPublicKey: offer.rootPublicKey,
    secret: joined.secret,
    creds: joined.creds,
    natsName: joined.grant.natsName,
    credsExpiresAt: joined.grant.credsExpiresAt,
    roster: {
      bytes: toBase64url(new Uint8Array(joined.signedRoster.bytes)),
      signature: toBase64url(new Uint8Array(joined.signedRoster.signature)),
    },
    highestRosterVersion: joined.roster.version,
  }
  await options.save(record)
  return record
}
