// Test helper: the phone's WebSocket transport run in Node. Node 20 has no global WebSocket: the `ws`
// package stands in, sending the Origin a browser would (the relay test world allows https://inbox.example).
import { wsconnect, type NatsConnection } from '@nats-io/nats-core'
import WebSocket from 'ws'
import type { RelayConnect } from '../../relay/exchange'

/** A RelayConnect dialling the relay's WebSocket listener as the phone app does, from Node. */
export const nodeWsConnect: RelayConnect = (options) =>
  wsconnect({
    ...options,
    wsFactory: async (url: string) => ({
      socket: new WebSocket(url, { headers: { Origin: 'https://inbox.example' } }) as unknown as globalThis.WebSocket,
      encrypted: false,
    }),
  } as Parameters<typeof wsconnect>[0]) as Promise<NatsConnection>
