// One clear sentence for each way pairing can stop on the phone, in the person's language.
import { RelayCryptoError } from '../../../relay/crypto/errors'
import { RelayNatsError } from '../../../relay/nats/errors'
import { RelayPairingError } from '../../../relay/pairing/errors'
import type { I18n } from '../../../renderer/src/i18n/i18n.svelte'
import { PhoneHomeError } from '../home/phone-home'

/** Whether a stop is an alarm (someone else saw the offer) or a plain failure. */
export interface PairStop {
  alarm: boolean
  text: string
}

/**
 * The sentence for `error`: expired, declined, cancelled on the desktop, offer used by someone else (an alarm), damaged link, the
 * store's own message, or, for anything the relay connection threw, "relay unreachable".
 */
export function pairStopText(error: unknown, i18n: Pick<I18n, 't'>): PairStop {
  if (error instanceof RelayPairingError) {
    switch (error.code) {
      case 'RELAY_PAIR_EXPIRED':
        return { alarm: false, text: i18n.t('phonePairExpired') }
      case 'RELAY_PAIR_DECLINED':
        return { alarm: false, text: i18n.t('phonePairDeclined') }
      case 'RELAY_PAIR_CANCELLED':
        return { alarm: false, text: i18n.t('phonePairCancelled') }
      case 'RELAY_PAIR_LINE_USED':
        return { alarm: true, text: i18n.t('phonePairLineUsed') }
      case 'RELAY_PAIR_LINE_INVALID':
        return { alarm: false, text: i18n.t('phonePairInvalid') }
      default:
        return { alarm: false, text: i18n.t('phonePairFailed', { reason: error.message }) }
    }
  }
  if (error instanceof PhoneHomeError) return { alarm: false, text: error.message }
  // A roster not signed by the pinned root key, keys this browser cannot make, or a relay server or URL
  // refused (an outdated nats-server off loopback): not the network.
  if (error instanceof RelayCryptoError || error instanceof RelayNatsError)
    return { alarm: false, text: i18n.t('phonePairFailed', { reason: error.message }) }
  return { alarm: false, text: i18n.t('phonePairUnreachable') }
}
