// The phone's inbox bridge as the app runs it: the relay's WebSocket, wake-ups from the browser, newer
// rosters saved. Started by the entry before the interface's code has loaded (shell/first-screen.ts), or
// by the shell after a pairing (PhoneApp.svelte).
import { wsconnect, type NatsConnection } from '@nats-io/nats-core'
import { browserWake } from '../bridge/browser-wake'
import { createPhoneBridge } from '../bridge/phone-bridge'
import { signAheadSocketFactory } from '../../../relay/exchange/sign-ahead-socket'
import { savePhoneRecord } from '../home/phone-home'
import type { PhoneRecord } from '../home/phone-record'

/** The inbox's bridge: the renderer's CompanionBridge over the relay, closed when the inbox goes. */
export type InboxBridge = ReturnType<typeof createPhoneBridge>

/** Starts the bridge for `record`: it dials the relay at once and keeps its asks until `close()`. */
export function startInboxBridge(record: PhoneRecord): InboxBridge {
  return createPhoneBridge(record, {
    // The server's INFO waits for WebCrypto's signature of its nonce (sign-ahead-socket.ts).
    connect: (options) =>
      wsconnect({ ...options, wsFactory: signAheadSocketFactory(options) }) as Promise<NatsConnection>,
    wake: browserWake,
    // As the desktop's own link (CLI_SERVER_CHECKS): an outdated server is excused only on loopback,
    // which a phone never dials except when the relay runs on the same machine (a test or a demo).
    allowOutdatedLoopback: true,
    // A newer root-signed roster is kept, so a relay cannot later serve an older one.
    saveRecord: savePhoneRecord,
  })
}
