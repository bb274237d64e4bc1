// Connecting to the relay from Node (the terminal and the desktop) with one credential. The KV
// operations pairing needs live in relay-kv.ts, which runs in the phone's browser too; the phone dials
// with its own WebSocket connect (phone/src/pairing/phone-connect.ts) and passes it as a RelayConnect.
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { credsLogin } from '../exchange/creds-authenticator'
import { checkServer, type CheckServerOptions } from '../nats/server-version'
import { inboxPrefixFor } from '../nats/templates'

export { createEntry, putEntry, replaceEntry, getEntry, watchKey, type RelayConnect } from './relay-kv'

/**
 * Connects to `url` as the NATS user `name` with the `.creds` text `creds`, using `name`'s own inbox
 * prefix (the only one its credential may read), then checks the server's version for that URL.
 * Closes the connection and rethrows `RELAY_*` when the URL or the server is refused.
 */
export async function connectRelay(
  url: string,
  creds: string,
  name: string,
  options: CheckServerOptions = {},
): Promise<NatsConnection> {
  const nc = await connect({
    servers: url,
    authenticator: credsLogin(creds),
    inboxPrefix: inboxPrefixFor(name),
    reconnect: false,
    name: 'ask-user',
  })
  try {
    checkServer(nc.info, url, options)
  } catch (error) {
    await nc.close()
    throw error
  }
  return nc
}
