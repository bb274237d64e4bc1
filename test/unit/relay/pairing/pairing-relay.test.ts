// Pairing through a real nats-server in operator mode with the real scoped credentials: the pair
// role's reach, and every refusal of the exchange (second request, wrong MAC, used line, decline, expiry).
import { jetstream } from '@nats-io/jetstream'
import { createUser } from '@nats-io/nkeys'
import type { NatsConnection } from '@nats-io/transport-node'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateRootIdentity, loadRootKeys, signRoster } from '../../../../relay/crypto'
import { createBuckets } from '../../../../relay/nats/buckets'
import { mintAdminCredential, mintRoleCredential, mintRoleJwt } from '../../../../relay/nats/credentials'
import { initSelfHosted, type SelfHostedInit } from '../../../../relay/nats/init'
import {
  connectRelay,
  createEntry,
  createPairOffer,
  getEntry,
  joinPairing,
  makePairRequest,
  newPairId,
  runDesktopPairing,
  type PairOffer,
  type PairRequestBody,
} from '../../../../relay/pairing'
import { makeMember } from '../crypto-fixtures'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay pairing tests: ${skip}`)
const CHECKS = { allowOutdatedLoopback: true }

describe.skipIf(skip)('pairing through a real nats-server', () => {
  let root: string
  let init: SelfHostedInit
  let server: RunningNatsServer
  let url: string
  let desktop: NatsConnection
  let rootPublicKey: string
  let rootKeys: Awaited<ReturnType<typeof loadRootKeys>>

  const signer = (role: 'pair' | 'desktop' | 'device') => ({
    accountPublicKey: init.companionKeys.accountPublicKey,
    signingSeed: init.companionKeys.roleSigningSeeds[role],
  })
  const newOffer = async (ttlMs = 60_000): Promise<PairOffer> => {
    const pairId = newPairId()
    const creds = (await mintRoleCredential(signer('pair'), 'pair', pairId, 120)).creds
    return createPairOffer({ url, rootPublicKey, pairId, creds, now: Date.now(), ttlMs })
  }
  const grantFor = async (request: PairRequestBody) => {
    const { jwt, expiresAt } = await mintRoleJwt(signer('device'), 'device', request.member.id, request.nkey, 3_600)
    return {
      jwt,
      natsName: request.member.id,
      credsExpiresAt: expiresAt,
      roster: await signRoster(rootKeys, { version: 2, members: [request.member], now: Date.now() }),
    }
  }
  const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => 'ACCEPTED',
      (error: { code?: string }) => error.code ?? String(error),
    )
  const asPairLine = (offer: PairOffer) => connectRelay(url, offer.creds, offer.pairId, CHECKS)

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-pairing-'))
    const port = await freePort()
    url = `nats://127.0.0.1:${port}`
    init = await initSelfHosted(join(root, 'relay'), {
      loopbackTest: true,
      clientPort: port,
      websocketPort: await freePort(),
      allowedOrigins: ['https://inbox.example'],
    })
    server = await startNatsServer(init.configPath)
    const admin = await connectRelay(url, await mintAdminCredential(init.accountSeed, 60), 'admin', CHECKS)
    await createBuckets(admin)
    await admin.close()
    desktop = await connectRelay(
      url,
      (await mintRoleCredential(signer('desktop'), 'desktop', 'desk1', 600)).creds,
      'desk1',
      CHECKS,
    )
    const identity = await generateRootIdentity()
    rootPublicKey = identity.publicKey
    rootKeys = await loadRootKeys(identity.secret)
  })
  afterAll(async () => {
    await desktop?.close()
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('the refusals of a server below the advisory floors hold unless the caller allows loopback', async () => {
    const offer = await newOffer()
    await expect(connectRelay(url, offer.creds, offer.pairId)).rejects.toMatchObject({ code: 'RELAY_SERVER_ADVISORY' })
  })

  it('a pairing credential writes only its own request and reads only its own reply', async () => {
    const offer = await newOffer()
    const other = await newOffer()
    const nc = await asPairLine(offer)
    try {
      await createEntry(desktop, 'pair', `resp.${other.pairId}`, new TextEncoder().encode('for the other'))
      await expect(getEntry(nc, 'pair', `resp.${other.pairId}`)).rejects.toThrow(/permissions violation/i)
      await expect(createEntry(nc, 'pair', `req.${other.pairId}`, new Uint8Array([1]))).rejects.toThrow(
        /permissions violation/i,
      )
      await expect(createEntry(nc, 'pair', `resp.${offer.pairId}`, new Uint8Array([1]))).rejects.toThrow(
        /permissions violation/i,
      )
      await expect(createEntry(nc, 'roster', 'current', new Uint8Array([1]))).rejects.toThrow(/permissions violation/i)
      expect(await createEntry(nc, 'pair', `req.${offer.pairId}`, new Uint8Array([1]))).toBe(true)
    } finally {
      await nc.close()
    }
  })

  it('pairs end to end: same code on both sides, the device gets a working 7-day-style credential', async () => {
    const offer = await newOffer()
    const codes: string[] = []
    const desk = runDesktopPairing(desktop, offer, {
      confirm: async (_request, code) => (codes.push(code), true),
      grant: grantFor,
    })
    const joined = await joinPairing(offer, { name: 'laptop', showCode: (code) => codes.push(code), server: CHECKS })
    expect((await desk).member.name).toBe('laptop')
    expect(codes).toHaveLength(2)
    expect(codes[0]).toBe(codes[1])
    const nc = await connectRelay(url, joined.creds, joined.grant.natsName, CHECKS)
    await nc.close()
  })

  it('a second request for the same pairing is an alarm: refused, reported, and the device is told no', async () => {
    const offer = await newOffer()
    const device = await makeMember('laptop', 'device')
    const line = await asPairLine(offer)
    let release!: (confirmed: boolean) => void
    let outcome: string | undefined
    const asked = new Promise<void>((resolve) => {
      void runDesktopPairing(desktop, offer, {
        confirm: () => (resolve(), new Promise<boolean>((r) => (release = r))),
        grant: grantFor,
      }).then(
        () => (outcome = 'ACCEPTED'),
        (error: { code?: string }) => (outcome = error.code ?? String(error)),
      )
    })
    try {
      expect(
        await createEntry(
          line,
          'pair',
          `req.${offer.pairId}`,
          await makePairRequest(offer, device.member, createUser().getPublicKey(), Date.now()),
        ),
      ).toBe(true)
      await asked
      // Whoever else holds the line overwrites the request (a plain put is within the pair role).
      const intruder = await makeMember('intruder', 'device')
      await jetstream(line, { checkAPI: false }).publish(
        `$KV.pair.req.${offer.pairId}`,
        await makePairRequest(offer, intruder.member, createUser().getPublicKey(), Date.now()),
      )
      await expect.poll(() => outcome, { timeout: 10_000 }).toBe('RELAY_PAIR_SECOND_REQUEST')
      release(true)
      const reply = await getEntry(line, 'pair', `resp.${offer.pairId}`)
      expect(JSON.parse(new TextDecoder().decode(reply!.value))).toMatchObject({ t: 'declined' })
    } finally {
      await line.close()
    }
  })

  it('a request with the wrong MAC is refused and declined; the joiner of a used line raises the alarm', async () => {
    const offer = await newOffer()
    const device = await makeMember('laptop', 'device')
    const desk = codeOf(runDesktopPairing(desktop, offer, { confirm: async () => true, grant: grantFor }))
    const line = await asPairLine(offer)
    try {
      const forged = await makePairRequest(
        { ...offer, secret: (await newOffer()).secret },
        device.member,
        createUser().getPublicKey(),
        Date.now(),
      )
      expect(await createEntry(line, 'pair', `req.${offer.pairId}`, forged)).toBe(true)
      expect(await desk).toBe('RELAY_PAIR_MAC')
    } finally {
      await line.close()
    }
    // The real device arrives second: its request cannot be stored, and it says so.
    expect(await codeOf(joinPairing(offer, { name: 'laptop', showCode: () => undefined, server: CHECKS }))).toBe(
      'RELAY_PAIR_LINE_USED',
    )
  })

  it('declined on the desktop: both sides refuse and the roster is not touched', async () => {
    const offer = await newOffer()
    let granted = false
    const desk = codeOf(
      runDesktopPairing(desktop, offer, {
        confirm: async () => false,
        grant: async (r) => ((granted = true), grantFor(r)),
      }),
    )
    expect(await codeOf(joinPairing(offer, { name: 'laptop', showCode: () => undefined, server: CHECKS }))).toBe(
      'RELAY_PAIR_DECLINED',
    )
    expect(await desk).toBe('RELAY_PAIR_DECLINED')
    expect(granted).toBe(false)
  })

  it('no request before the line expires: the desktop gives up with RELAY_PAIR_EXPIRED', async () => {
    const offer = await newOffer(300)
    expect(await codeOf(runDesktopPairing(desktop, offer, { confirm: async () => true, grant: grantFor }))).toBe(
      'RELAY_PAIR_EXPIRED',
    )
  })
})
