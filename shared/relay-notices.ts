// The relay's own notices (sender "Relay") in one wording for the desktop's windows
// (core/relay-bridge/relay-notices.ts) and the phone's inbox (phone/src/bridge/phone-notices.ts).
import type { Notice } from './approval'

/** The sender of the relay's notices in every window and on the phone. */
export const RELAY_NOTICE_AGENT = { name: 'Relay' } as const

/** A notice of the relay: what it says and its title. */
export interface RelayNotice {
  notice: Notice
  title: string
}

/** The relay cannot be reached (the desktop shows it once until the relay is back). */
export function relayUnreachableNotice(url: string): RelayNotice {
  return {
    notice: {
      kind: 'info',
      text: `The relay at ${url} is unreachable. Agents on this machine are not affected; remote asks stay listed and can be answered once it is back.`,
    },
    title: 'Relay unreachable',
  }
}

/** An alarm: something on the relay that no desk can verify (an answer, a question, a roster). */
export function relayAlarmNotice(text: string): RelayNotice {
  return { notice: { kind: 'info', text: `Alarm: ${text}` }, title: 'Relay alarm' }
}

/** Something the person should act on (a lapse ahead, a refusal that stopped the bridge). */
export function relayProblemNotice(text: string): RelayNotice {
  return { notice: { kind: 'info', text }, title: 'Relay' }
}

/**
 * What a desk refused to show from the relay (relay/exchange `DeskRefusal`: a question, receipt or
 * roster that does not verify, a rollback), in words: where it was, the stable code and why. Never
 * content: a refusal carries none.
 */
export function refusedOnRelayText(refusal: { key: string; code: string; message: string }): string {
  return `the relay held something this desk refused to show (${refusal.key}, ${refusal.code}): ${refusal.message}`
}
