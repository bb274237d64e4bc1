// The phone dials the relay over WebSocket (the relay's `websocket` listener, which allows only the
// app's origin), with the same credential, inbox prefix and server checks as the Node side.
import { wsconnect, type ConnectionOptions, type NatsConnection } from '@nats-io/nats-core'
import { credsLogin } from '../../../relay/exchange/creds-authenticator'
import { checkServer, type CheckServerOptions } from '../../../relay/nats/server-version'
import { inboxPrefixFor } from '../../../relay/nats/templates'

/**
 * The phone's server checks, as the desktop's own link: an outdated nats-server is excused only on a
 * loopback URL, which a phone dials only when the relay runs on the same machine (a test or a demo).
 */
export const PHONE_SERVER_CHECKS: CheckServerOptions = Object.freeze({ allowOutdatedLoopback: true })

/**
 * Opens a WebSocket connection to `url` (`wss://…`, or `ws://` on loopback) as NATS user `name` with the
 * `.creds` text `creds`, then checks the server for that URL (relay/nats `checkServer` with
 * {@link PHONE_SERVER_CHECKS}): refuses with `RELAY_URL_*`, `RELAY_SERVER_TOO_OLD` or
 * `RELAY_SERVER_ADVISORY` (connection closed). No reconnect: pairing is one short exchange, and a cut
 * link is reported. `dial` is the transport (tests pass one that reaches the server another way).
 */
export async function connectOverWebSocket(
  url: string,
  creds: string,
  name: string,
  dial: (options: ConnectionOptions) => Promise<NatsConnection> = wsconnect,
): Promise<NatsConnection> {
  const nc = await dial({
    servers: url,
    authenticator: credsLogin(creds),
    inboxPrefix: inboxPrefixFor(name),
    reconnect: false,
    name: 'ask-user-phone',
  })
  try {
    checkServer(nc.info, url, PHONE_SERVER_CHECKS)
  } catch (error) {
    await nc.close()
    throw error
  }
  return nc
}
