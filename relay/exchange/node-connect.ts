// The Node transport for RelayLink (TCP, optionally TLS). Kept out of relay-link.ts so that the phone's
// browser build never loads @nats-io/transport-node.
import { connect } from '@nats-io/transport-node'
import type { RelayConnect } from './relay-link'

/** RelayLink's transport in Node: `@nats-io/transport-node`'s connect (nats: and tls: URLs). */
export const nodeConnect: RelayConnect = connect
