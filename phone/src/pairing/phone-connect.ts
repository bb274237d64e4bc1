// The phone dials the relay over WebSocket (the relay's `websocket` listener, which allows only the
// app's origin), with the same credential and inbox prefix rules as the Node side.
import { credsAuthenticator, wsconnect, type NatsConnection } from '@nats-io/nats-core'
import { inboxPrefixFor } from '../../../relay/nats/templates'

/**
 * Opens a WebSocket connection to `url` (`wss://…`, or `ws://` on loopback) as NATS user `name` with the
 * `.creds` text `creds`. No reconnect: pairing is one short exchange, and a cut link is reported.
 */
export function connectOverWebSocket(url: string, creds: string, name: string): Promise<NatsConnection> {
  return wsconnect({
    servers: url,
    authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
    inboxPrefix: inboxPrefixFor(name),
    reconnect: false,
    name: 'ask-user-phone',
  })
}
