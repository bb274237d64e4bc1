// Test fixture: a TCP proxy on 127.0.0.1 in front of the relay that a test can cut (every link dropped,
// new ones refused) and restore, standing in for an agent's network going away.
import { createConnection, createServer, type Socket } from 'node:net'

/** A running proxy: its URL, `cut()`, `restore()` and `close()`. */
export interface CuttableProxy {
  url: string
  /** Connections refused while cut so far (a client trying to come back). */
  refused(): number
  cut(): void
  restore(): void
  close(): Promise<void>
}

/** Starts a proxy forwarding to 127.0.0.1:`targetPort`. */
export async function startCuttableProxy(targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>()
  let cut = false
  let refused = 0
  const server = createServer((client) => {
    if (cut) {
      refused++
      client.destroy()
      return
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => socket.destroy())
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('proxy has no port')
  return {
    url: `nats://127.0.0.1:${address.port}`,
    refused: () => refused,
    cut() {
      cut = true
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      cut = false
    },
    async close() {
      cut = true
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
