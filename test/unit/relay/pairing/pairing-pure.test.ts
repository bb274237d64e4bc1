// The pairing exchange without a relay: the line, the MAC'd request, the 6-digit code and the sealed
// grant, and every refusal a relay or a line-photographer could provoke.
import { createUser } from '@nats-io/nkeys'
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generateRootIdentity, loadRootKeys, signRoster, type SignedRoster } from '../../../../relay/crypto'
import {
  checkPairRequest,
  confirmationCode,
  createPairOffer,
  formatPairLine,
  makePairRequest,
  openPairResponse,
  parsePairLine,
  sealPairGrant,
  declinePairResponse,
  joinPairing,
  type PairOffer,
} from '../../../../relay/pairing'
import { makeMember, NOW } from '../crypto-fixtures'

const offerAt = (now: number, rootPublicKey: string, pairId = 'pairpairpairpairpair01'): PairOffer =>
  createPairOffer({ url: 'nats://127.0.0.1:4222', rootPublicKey, pairId, creds: 'creds-text', now, ttlMs: 5 * 60_000 })

async function setting() {
  const root = await generateRootIdentity()
  const rootKeys = await loadRootKeys(root.secret)
  const device = await makeMember('laptop', 'device')
  const offer = offerAt(NOW, root.publicKey)
  const request = await makePairRequest(offer, device.member, createUser().getPublicKey(), NOW + 1_000)
  return { root, rootKeys, device, offer, request }
}

const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'ACCEPTED',
    (error: { code?: string }) => error.code,
  )

describe('the pairing line', () => {
  it('round-trips, and refuses a cut line and an expired one', async () => {
    const { offer } = await setting()
    const line = formatPairLine(offer)
    expect(line).toMatch(/^AUP1:[A-Za-z0-9_-]+$/)
    expect(parsePairLine(` ${line}\n`, NOW)).toEqual(offer)
    expect(() => parsePairLine(line.slice(0, -10), NOW)).toThrow(
      expect.objectContaining({ code: 'RELAY_PAIR_LINE_INVALID' }),
    )
    expect(() => parsePairLine(`x${line}`, NOW)).toThrow(expect.objectContaining({ code: 'RELAY_PAIR_LINE_INVALID' }))
    expect(() => parsePairLine(line, offer.expiresAt)).toThrow(
      expect.objectContaining({ code: 'RELAY_PAIR_EXPIRED', message: expect.stringMatching(/relay pair.*again/) }),
    )
  })
})

describe('the request', () => {
  it("is accepted with the line's secret and both sides compute the same 6-digit code", async () => {
    const { offer, request, device } = await setting()
    const body = await checkPairRequest(offer, request, NOW + 2_000)
    expect(body.member).toEqual(device.member)
    expect(await confirmationCode(offer, request)).toMatch(/^\d{6}$/)
    expect(await confirmationCode(parsePairLine(formatPairLine(offer), NOW), request)).toBe(
      await confirmationCode(offer, request),
    )
  })

  it('refuses keys swapped by the relay (MAC), with a different code as well', async () => {
    const { offer, request } = await setting()
    const relays = await makeMember('laptop', 'device')
    const outer = JSON.parse(new TextDecoder().decode(request)) as { body: string; mac: string }
    const body = JSON.parse(outer.body) as { member: unknown }
    const swapped = new TextEncoder().encode(
      JSON.stringify({ body: JSON.stringify({ ...body, member: relays.member }), mac: outer.mac }),
    )
    expect(await codeOf(checkPairRequest(offer, swapped, NOW + 2_000))).toBe('RELAY_PAIR_MAC')
    expect(await confirmationCode(offer, swapped)).not.toBe(await confirmationCode(offer, request))
    // Made with another line's secret (someone who never saw this line).
    const stranger = await makePairRequest(
      { ...offer, secret: offerAt(NOW, offer.rootPublicKey).secret },
      relays.member,
      createUser().getPublicKey(),
      NOW,
    )
    expect(await codeOf(checkPairRequest(offer, stranger, NOW + 2_000))).toBe('RELAY_PAIR_MAC')
  })

  it('refuses a request replayed from another pairing, an expired pairing and garbage', async () => {
    const { offer, device } = await setting()
    const older = offerAt(NOW - 60_000, offer.rootPublicKey, 'olderpairolderpairold1')
    const replayed = await makePairRequest(older, device.member, createUser().getPublicKey(), NOW - 50_000)
    expect(await codeOf(checkPairRequest(offer, replayed, NOW + 2_000))).toBe('RELAY_PAIR_REPLAY')
    const fresh = await makePairRequest(offer, device.member, createUser().getPublicKey(), NOW)
    expect(await codeOf(checkPairRequest(offer, fresh, offer.expiresAt))).toBe('RELAY_PAIR_EXPIRED')
    const predated = await makePairRequest(offer, device.member, createUser().getPublicKey(), NOW - 6 * 60_000)
    expect(await codeOf(checkPairRequest(offer, predated, NOW))).toBe('RELAY_PAIR_EXPIRED')
    expect(await codeOf(checkPairRequest(offer, new TextEncoder().encode('{"body":"{}","mac":"x"}'), NOW))).toBe(
      'RELAY_PAIR_REQUEST_INVALID',
    )
  })

  it('accepts a joining desktop only where the desktop allows it (the terminal), never an agent', async () => {
    const { offer } = await setting()
    const desk = await makeMember('office', 'desktop')
    const request = await makePairRequest(offer, desk.member, createUser().getPublicKey(), NOW + 1_000)
    expect(await codeOf(checkPairRequest(offer, request, NOW + 2_000))).toBe('RELAY_PAIR_REQUEST_INVALID')
    const body = await checkPairRequest(offer, request, NOW + 2_000, { allowDesktop: true })
    expect(body.member.role).toBe('desktop')
    const agent = await makeMember('builder', 'agent')
    const asAgent = await makePairRequest(offer, agent.member, createUser().getPublicKey(), NOW + 1_000)
    expect(await codeOf(checkPairRequest(offer, asAgent, NOW + 2_000, { allowDesktop: true }))).toBe(
      'RELAY_PAIR_REQUEST_INVALID',
    )
  })
})

describe('device names', () => {
  it('a name with control characters (a terminal escape) is refused on both sides', async () => {
    const { offer, device } = await setting()
    const evil = 'laptop\u001b[2J\u001b[1;1HPair "desk"? yes'
    expect(await codeOf(joinPairing(offer, { name: evil, showCode: () => undefined }))).toBe(
      'RELAY_PAIR_REQUEST_INVALID',
    )
    // Made by hand with the right MAC, so only the name is wrong.
    const body = JSON.stringify({
      v: 1,
      t: 'pair-request',
      pairId: offer.pairId,
      member: { ...device.member, name: evil },
      nkey: createUser().getPublicKey(),
      created: NOW,
    })
    const mac = createHmac('sha256', Buffer.from(offer.secret, 'base64url')).update(body).digest('base64url')
    expect(await codeOf(checkPairRequest(offer, new TextEncoder().encode(JSON.stringify({ body, mac })), NOW))).toBe(
      'RELAY_PAIR_REQUEST_INVALID',
    )
  })
})

describe('the grant', () => {
  const grantWith = async (s: Awaited<ReturnType<typeof setting>>, roster: SignedRoster) =>
    sealPairGrant({
      offer: s.offer,
      request: await checkPairRequest(s.offer, s.request, NOW),
      storedRequest: s.request,
      jwt: 'jwt',
      natsName: s.device.member.id,
      credsExpiresAt: 1,
      roster,
    })

  it('opens on the device when its roster is root-signed and lists it', async () => {
    const s = await setting()
    const roster = await signRoster(s.rootKeys, { version: 2, members: [s.device.member], now: NOW })
    const opened = await openPairResponse(s.device, await grantWith(s, roster), {
      offer: s.offer,
      storedRequest: s.request,
      now: NOW,
    })
    expect(opened.roster.version).toBe(2)
    expect(opened.grant.jwt).toBe('jwt')
  })

  it("refuses a roster signed by another root, one that does not list the device, another request's grant and a decline", async () => {
    const s = await setting()
    const otherRoot = await loadRootKeys((await generateRootIdentity()).secret)
    const forged = await signRoster(otherRoot, { version: 2, members: [s.device.member], now: NOW })
    expect(
      await codeOf(
        openPairResponse(s.device, await grantWith(s, forged), { offer: s.offer, storedRequest: s.request, now: NOW }),
      ),
    ).toBe('ROSTER_SIGNATURE')
    const without = await signRoster(s.rootKeys, { version: 2, members: [], now: NOW })
    expect(
      await codeOf(
        openPairResponse(s.device, await grantWith(s, without), { offer: s.offer, storedRequest: s.request, now: NOW }),
      ),
    ).toBe('RELAY_PAIR_RESPONSE_INVALID')
    const good = await grantWith(s, await signRoster(s.rootKeys, { version: 2, members: [s.device.member], now: NOW }))
    const otherRequest = await makePairRequest(s.offer, s.device.member, createUser().getPublicKey(), NOW)
    expect(
      await codeOf(openPairResponse(s.device, good, { offer: s.offer, storedRequest: otherRequest, now: NOW })),
    ).toBe('RELAY_PAIR_RESPONSE_INVALID')
    expect(
      await codeOf(
        openPairResponse(s.device, declinePairResponse(s.offer.pairId), {
          offer: s.offer,
          storedRequest: s.request,
          now: NOW,
        }),
      ),
    ).toBe('RELAY_PAIR_DECLINED')
  })
})
