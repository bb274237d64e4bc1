// relay/pairing's public surface: adding a device to a person's relay, for the terminal, the Electron
// window and the phone (whose browser imports the runtime-neutral files directly, not this index). Pure parts (line, request, code, grant) and the NATS exchange.
export { RelayPairingError, type RelayPairingCode } from './errors'
export {
  PairOfferSchema,
  PairRequestBodySchema,
  PairGrantSchema,
  DeskSecretsSchema,
  type DeskSecrets,
  type PairOffer,
  type PairRequestBody,
  type PairGrant,
} from './schemas'
export {
  createPairOffer,
  formatPairLine,
  parsePairLine,
  formatPairLink,
  parsePairFragment,
  newPairId,
  PAIR_OFFER_TTL_MS,
  PAIR_LINE_PREFIX,
  PAIR_FRAGMENT_KEY,
} from './offer'
export { makePairRequest, checkPairRequest, confirmationCode, requestDigest } from './request'
export { sealPairGrant, declinePairResponse, openPairResponse } from './response'
export { connectRelay, createEntry, putEntry, replaceEntry, getEntry, watchKey, type RelayConnect } from './relay-link'
export { runDesktopPairing, type DesktopPairingHooks, type PairGrantInput } from './desktop-pairing'
export { joinPairing, type JoinedDevice } from './join-pairing'
export { joinPairingWith, type JoinOptions } from './join-exchange'
