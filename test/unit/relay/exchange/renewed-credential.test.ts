// A long-running desk's link outlives its credential: RelayLink asks a creds function at every
// (re)connect, so when the server drops the link at the credential's expiry, the reconnect uses the
// renewed one the caller put in place meanwhile (the companion's bridge renews every 12 hours).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeConnect, RelayLink } from '../../../../relay/exchange'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { startRelayWorld, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the renewed-credential test: ${skip}`)

describe.skipIf(skip)('a link whose credential expires and is renewed (real nats-server)', () => {
  let world: RelayWorld
  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop'], agents: [] })
  }, 60_000)
  afterAll(async () => {
    await world?.close()
  })

  it('reconnects with the renewed credential after the server drops the expiring one', async () => {
    let current = await world.mint('device', 'laptop', 3)
    let asked = 0
    const link = await RelayLink.open({
      url: world.url,
      connect: nodeConnect,
      creds: () => {
        asked++
        return current
      },
      name: 'laptop',
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
    })
    try {
      const atConnect = asked
      expect(atConnect).toBeGreaterThan(0)
      current = await world.mint('device', 'laptop', 600)
      // The server ends the session at the first credential's expiry; the reconnect asks again.
      await new Promise<void>((resolve) => {
        const off = link.onReconnect(() => {
          off()
          resolve()
        })
      })
      expect(asked).toBeGreaterThan(atConnect)
      expect(link.up).toBe(true)
      await link.nc.flush()
    } finally {
      await link.close()
    }
  }, 30_000)
})
