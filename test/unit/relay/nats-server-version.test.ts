import { connect } from '@nats-io/transport-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkRelayUrl, checkServer } from '../../../relay/nats/server-version'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { writeFileAtomic } from '../../../core/private-files'

describe('checkRelayUrl', () => {
  it('refuses credentials in URLs and plaintext to a non-loopback host', () => {
    expect(() => checkRelayUrl('tls://user:pw@relay.example:4222')).toThrow(
      expect.objectContaining({ code: 'RELAY_URL_HAS_CREDENTIALS' }),
    )
    expect(() => checkRelayUrl('wss://relay.example/?token=abc')).toThrow(
      expect.objectContaining({ code: 'RELAY_URL_HAS_CREDENTIALS' }),
    )
    expect(() => checkRelayUrl('nats://relay.example:4222')).toThrow(
      expect.objectContaining({ code: 'RELAY_URL_NOT_TLS' }),
    )
    expect(() => checkRelayUrl('ws://localhost:8080')).toThrow(expect.objectContaining({ code: 'RELAY_URL_NOT_TLS' }))
    expect(() => checkRelayUrl('http://relay.example')).toThrow(expect.objectContaining({ code: 'RELAY_BAD_URL' }))
    expect(checkRelayUrl('nats://127.0.0.1:4222').loopback).toBe(true)
    expect(checkRelayUrl('ws://[::1]:8080').loopback).toBe(true)
    expect(checkRelayUrl('wss://relay.example').loopback).toBe(false)
  })
})

describe('checkServer', () => {
  it('refuses non-loopback servers below the advisory floors and accepts current ones', () => {
    expect(() =>
      checkServer({ version: '2.9.10' }, 'tls://relay.example:4222', { allowOutdatedLoopback: true }),
    ).toThrow(expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }))
    expect(() => checkServer({ version: '2.11.14' }, 'tls://relay.example:4222')).toThrow(
      expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }),
    )
    expect(() => checkServer({ version: '2.12.5' }, 'wss://relay.example')).toThrow(
      expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }),
    )
    expect(() => checkServer({ version: '2.10.29' }, 'wss://relay.example')).toThrow(
      expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }),
    )
    expect(() => checkServer({ version: '2.8.4' }, 'nats://127.0.0.1:4222', { allowOutdatedLoopback: true })).toThrow(
      expect.objectContaining({ code: 'RELAY_SERVER_TOO_OLD' }),
    )
    expect(() => checkServer({}, 'wss://relay.example')).toThrow(
      expect.objectContaining({ code: 'RELAY_BAD_SERVER_INFO' }),
    )
    expect(checkServer({ version: '2.11.15' }, 'tls://relay.example:4222')).toEqual({
      version: '2.11.15',
      perKeyTtl: true,
    })
    expect(checkServer({ version: '2.14.5' }, 'wss://relay.example').perKeyTtl).toBe(true)
  })

  it('accepts an outdated loopback server only with the explicit test option', () => {
    expect(() => checkServer({ version: '2.9.10' }, 'nats://127.0.0.1:4222')).toThrow(
      expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }),
    )
    expect(checkServer({ version: '2.9.10' }, 'nats://127.0.0.1:4222', { allowOutdatedLoopback: true })).toEqual({
      version: '2.9.10',
      perKeyTtl: false,
    })
  })
})

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the live server-version test: ${skip}`)

describe.skipIf(skip)('checkServer on the INFO of Debian nats-server', () => {
  let root: string
  let server: RunningNatsServer
  let port: number
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-ver-'))
    port = await freePort()
    await writeFileAtomic(join(root, 'plain.conf'), `listen: "127.0.0.1:${port}"\n`)
    server = await startNatsServer(join(root, 'plain.conf'))
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('reads 2.9.10 at connect and refuses it without the test option', async () => {
    const nc = await connect({ servers: `127.0.0.1:${port}`, reconnect: false })
    try {
      expect(() => checkServer(nc.info, `nats://127.0.0.1:${port}`)).toThrow(
        expect.objectContaining({ code: 'RELAY_SERVER_ADVISORY' }),
      )
      expect(checkServer(nc.info, `nats://127.0.0.1:${port}`, { allowOutdatedLoopback: true }).perKeyTtl).toBe(false)
    } finally {
      await nc.close()
    }
  })
})
