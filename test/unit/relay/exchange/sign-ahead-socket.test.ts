// The phone's WebSocket holding the server's INFO until WebCrypto has signed its nonce
// (relay/exchange/sign-ahead-socket.ts), against a real nats-server's WebSocket listener through the `ws`
// package (Node 20 has no global WebSocket): the relay link opens, and reopens after the server
// restarts, without tweetnacl signing anything; the plain socket makes tweetnacl sign, so the spy can see.
import { once } from 'node:events'
import { wsconnect, type Authenticator, type ConnectionOptions, type NatsConnection } from '@nats-io/nats-core'
import nacl from 'tweetnacl'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { credsLogin, credsLoginDerivingAhead } from '../../../../relay/exchange/creds-authenticator'
import { RelayLink } from '../../../../relay/exchange/relay-link'
import { infoNonceOf, signAheadSocketFactory } from '../../../../relay/exchange/sign-ahead-socket'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { nodeWsConnect } from '../../../helpers/node-ws-connect'
import { startRelayWorld, until, type RelayWorld } from './relay-world'
import { credsText } from '../../../helpers/creds-text'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the sign-ahead socket's relay tests: ${skip}`)

/** `wsconnect` as the phone's inbox calls it, over `ws` with the Origin the relay world allows. */
const signingAhead = (options: ConnectionOptions): Promise<NatsConnection> =>
  wsconnect({
    ...options,
    wsFactory: signAheadSocketFactory(
      options,
      (url) => new WebSocket(url, { headers: { Origin: 'https://inbox.example' } }) as unknown as globalThis.WebSocket,
    ),
  } as Parameters<typeof wsconnect>[0]) as Promise<NatsConnection>

describe("a server INFO's nonce", () => {
  it('is read from text and from bytes, and is undefined for anything else', () => {
    // nats-server ends its INFO line with a space before CRLF.
    const info = 'INFO {"server_id":"X","nonce":"kZ3Hq0cMsiA","max_payload":1048576} \r\n'
    expect(infoNonceOf(info)).toBe('kZ3Hq0cMsiA')
    expect(infoNonceOf(new TextEncoder().encode(info).buffer)).toBe('kZ3Hq0cMsiA')
    expect(infoNonceOf(new TextEncoder().encode(info))).toBe('kZ3Hq0cMsiA')
    expect(infoNonceOf('INFO {"nonce":"n"}\r\n')).toBe('n')
    expect(infoNonceOf('INFO {"server_id":"X"}\r\n')).toBeUndefined()
    expect(infoNonceOf('INFO {"nonce":""}\r\n')).toBeUndefined()
    expect(infoNonceOf('INFO {"nonce":"a"')).toBeUndefined()
    expect(infoNonceOf('INFO {not json}\r\n')).toBeUndefined()
    expect(infoNonceOf('PING\r\n')).toBeUndefined()
    expect(infoNonceOf(undefined)).toBeUndefined()
  })
})

/**
 * A stand-in server on a `ws` WebSocket: its INFO in three frames, the last also carrying the next line
 * (a server may cut anywhere), then PONG to every PING; `received` is what the client sent.
 */
async function splitInfoServer(): Promise<{ url: string; received: string[]; close(): void }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const received: string[] = []
  server.on('connection', (socket) => {
    socket.send(Buffer.from('INFO {"server_id":"S","version":"2.12.1","nonce":'))
    socket.send(Buffer.from('"kZ3Hq0cMsiA","headers":true,'))
    socket.send(Buffer.from('"max_payload":1048576} \r\nPING\r\n'))
    socket.on('message', (data) => {
      received.push(String(data))
      if (String(data).includes('PING')) socket.send(Buffer.from('PONG\r\n'))
    })
  })
  return { url: `ws://127.0.0.1:${port}`, received, close: () => server.close() }
}

/** Connects to `url` with `login` through the sign-ahead socket; returns the signature its CONNECT carried. */
async function connectSignature(
  server: { url: string; received: string[] },
  login: Authenticator & { signAhead?: unknown },
  holdLimitMs?: number,
): Promise<string> {
  const nc = await wsconnect({
    servers: server.url,
    authenticator: login,
    reconnect: false,
    wsFactory: signAheadSocketFactory(
      { authenticator: login },
      (url) => new WebSocket(url) as unknown as globalThis.WebSocket,
      holdLimitMs,
    ),
  } as Parameters<typeof wsconnect>[0])
  await nc.close()
  return (JSON.parse(/CONNECT (\{.*\})/.exec(server.received.join(''))![1]!) as { sig: string }).sig
}

describe('the sign-ahead WebSocket against a server that splits its INFO', () => {
  it('reads the INFO line across frames, holds what follows it, and sends the signature made ahead', async () => {
    const server = await splitInfoServer()
    const creds = await credsText()
    const expected = (credsLogin(creds)('kZ3Hq0cMsiA') as { sig: string }).sig
    const sign = vi.spyOn(nacl.sign, 'detached')
    try {
      expect(await connectSignature(server, credsLoginDerivingAhead(creds))).toBe(expected)
      expect(sign).not.toHaveBeenCalled()
    } finally {
      sign.mockRestore()
      server.close()
    }
  })

  it('a signature that never comes holds the INFO no longer than the limit; tweetnacl signs then', async () => {
    const server = await splitInfoServer()
    const creds = await credsText()
    const expected = (credsLogin(creds)('kZ3Hq0cMsiA') as { sig: string }).sig
    let asked = 0
    const stuck = Object.assign(credsLogin(creds), {
      derived: Promise.resolve(),
      signAhead: () => {
        asked++
        return new Promise<void>(() => undefined)
      },
    })
    const sign = vi.spyOn(nacl.sign, 'detached')
    try {
      expect(await connectSignature(server, stuck, 50)).toBe(expected)
      expect(asked).toBe(1)
      expect(sign).toHaveBeenCalledTimes(1)
    } finally {
      sign.mockRestore()
      server.close()
    }
  })
})

describe.skipIf(skip)('the sign-ahead WebSocket (real nats-server)', () => {
  let world: RelayWorld
  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['phone'], agents: [] })
  }, 60_000)
  afterAll(async () => {
    await world?.close()
  })

  const open = (connect: (options: ConnectionOptions) => Promise<NatsConnection>): Promise<RelayLink> => {
    const member = world.members.get('phone')!
    return RelayLink.open({
      url: world.wsUrl,
      connect,
      creds: member.creds,
      name: member.natsName,
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
      reachTimeoutMs: 10_000,
    })
  }

  it('logs in with the signature WebCrypto made, at the first connect and after a restart', async () => {
    const sign = vi.spyOn(nacl.sign, 'detached')
    const link = await open(signingAhead)
    try {
      await link.nc.flush()
      expect(sign).not.toHaveBeenCalled()
      let reconnected = false
      link.onReconnect(() => (reconnected = true))
      await world.killAndRestart()
      await until(() => reconnected, 'the link to come back', 20_000)
      await link.nc.flush()
      expect(sign).not.toHaveBeenCalled()
    } finally {
      sign.mockRestore()
      await link.close()
    }
  }, 60_000)

  it('without the hold (the plain socket), tweetnacl signs the nonce', async () => {
    const sign = vi.spyOn(nacl.sign, 'detached')
    const link = await open((options) => nodeWsConnect(options))
    try {
      await link.nc.flush()
      expect(sign).toHaveBeenCalledTimes(1)
    } finally {
      sign.mockRestore()
      await link.close()
    }
  })

  it('where WebCrypto cannot sign, the INFO still goes on and tweetnacl signs', async () => {
    const sign = vi.spyOn(nacl.sign, 'detached')
    const refuse = vi
      .spyOn(crypto.subtle, 'sign')
      .mockRejectedValue(new DOMException('no Ed25519', 'NotSupportedError'))
    const link = await open(signingAhead)
    try {
      await link.nc.flush()
      expect(refuse).toHaveBeenCalled()
      expect(sign).toHaveBeenCalledTimes(1)
    } finally {
      refuse.mockRestore()
      sign.mockRestore()
      await link.close()
    }
  })

  it('a refused credential is still refused (the held INFO carries the right signature only)', async () => {
    const member = world.members.get('phone')!
    const expired = await world.mint('device', member.natsName, 60, Date.now() - 3_600_000)
    await expect(
      RelayLink.open({
        url: world.wsUrl,
        connect: signingAhead,
        creds: expired,
        name: member.natsName,
        allowOutdatedLoopback: true,
        reachTimeoutMs: 5_000,
      }),
    ).rejects.toMatchObject({ code: 'RELAY_DENIED' })
  })
})
