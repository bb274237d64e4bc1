// The phone's WebSocket dial in Node tests: Node 20 has no global WebSocket, so the `ws` package stands
// in, sending the Origin a browser showing the app would (the relay worlds allow https://inbox.example).
import { wsconnect, type ConnectionOptions, type NatsConnection } from '@nats-io/nats-core'
import WebSocket from 'ws'

/** `wsconnect` over the `ws` package with Origin `origin`; same options and result as the browser's. */
export function nodeWsConnect(options: ConnectionOptions, origin = 'https://inbox.example'): Promise<NatsConnection> {
  return wsconnect({
    ...options,
    wsFactory: async (url: string) => ({
      socket: new WebSocket(url, { headers: { Origin: origin } }) as unknown as globalThis.WebSocket,
      encrypted: false,
    }),
  } as Parameters<typeof wsconnect>[0]) as Promise<NatsConnection>
}
