// The new device's side of pairing from a terminal (`ask-user relay join`): the exchange of
// join-exchange.ts, dialled over TCP from Node with the server's version checked.
import type { CheckServerOptions } from '../nats/server-version'
import { joinPairingWith, type JoinedDevice } from './join-exchange'
import { connectRelay } from './relay-link'
import type { PairOffer } from './schemas'

export type { JoinedDevice } from './join-exchange'

/**
 * Joins with a parsed `offer` under the device name `name` (see {@link joinPairingWith} for the
 * refusals); `server` tunes the server-version check of the relay URL.
 */
export async function joinPairing(
  offer: PairOffer,
  options: {
    name: string
    role?: 'device' | 'desktop'
    showCode: (code: string) => void
    now?: () => number
    server?: CheckServerOptions
  },
): Promise<JoinedDevice> {
  return joinPairingWith(offer, {
    ...options,
    connect: (url, creds, name) => connectRelay(url, creds, name, options.server),
  })
}
