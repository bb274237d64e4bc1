// relay/pairing's public surface: adding a device to a person's relay, for the terminal, the Electron
// window and (next) the phone. Pure parts (line, request, code, grant) and the NATS exchange.
export { RelayPairingError, type RelayPairingCode } from './errors'
export {
  PairOfferSchema,
  PairRequestBodySchema,
  PairGrantSchema,
  type PairOffer,
  type PairRequestBody,
  type PairGrant,
} from './schemas'
export { createPairOffer, formatPairLine, parsePairLine, newPairId, PAIR_OFFER_TTL_MS, PAIR_LINE_PREFIX } from './offer'
export { makePairRequest, checkPairRequest, confirmationCode, requestDigest } from './request'
export { sealPairGrant, declinePairResponse, openPairResponse } from './response'
export { connectRelay, createEntry, putEntry, replaceEntry, getEntry, watchKey } from './relay-link'
export { runDesktopPairing, type DesktopPairingHooks, type PairGrantInput } from './desktop-pairing'
export { joinPairing, type JoinedDevice } from './join-pairing'
