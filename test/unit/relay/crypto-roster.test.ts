import { describe, expect, it } from 'vitest'
import { utf8 } from '../../../relay/crypto/encoding'
import { generateRootIdentity, loadRootKeys } from '../../../relay/crypto/keys'
import {
  ROSTER_LIFETIME_MS,
  ROSTER_RENEW_BEFORE_MS,
  renewRoster,
  rosterRenewal,
  signRoster,
  verifyRoster,
} from '../../../relay/crypto/roster'
import { signBytes } from '../../../relay/crypto/signing'
import { NOW, expectRefusal, flipBit, makeInbox, makeMember } from './crypto-fixtures'

const DAY = 24 * 60 * 60 * 1000

describe('the root-signed roster', () => {
  it('verifies against the pinned root key and keeps members, version and a 60-day lifetime', async () => {
    const { roster, agent, devices } = await makeInbox(2)
    expect(roster).toMatchObject({ v: 1, version: 1, issuedAt: NOW, expiresAt: NOW + 60 * DAY })
    expect(ROSTER_LIFETIME_MS).toBe(60 * DAY)
    expect(roster.members.map((member) => member.id)).toEqual([
      agent.member.id,
      ...devices.map((device) => device.member.id),
    ])
  })

  it('refuses a roster not signed by the pinned root (ROSTER_SIGNATURE): another root, a device added by the relay, any flipped bit', async () => {
    const { root, rootPublic, roster } = await makeInbox(1)
    const signed = await signRoster(root, { version: 2, members: roster.members, now: NOW })
    const other = await generateRootIdentity()
    await expectRefusal(
      verifyRoster(signed.bytes, signed.signature, other.publicKey, { highestSeenVersion: 0, now: NOW }),
      'ROSTER_SIGNATURE',
    )
    // The relay appends its own device to the exact stored content and keeps the root's signature.
    const intruder = await makeMember('relay phone', 'device')
    const injected = utf8(JSON.stringify({ ...signed.roster, members: [...signed.roster.members, intruder.member] }))
    await expectRefusal(
      verifyRoster(injected, signed.signature, rootPublic, { highestSeenVersion: 0, now: NOW }),
      'ROSTER_SIGNATURE',
    )
    // The same content re-serialized with whitespace is not the signed bytes either.
    const reformatted = utf8(JSON.stringify(signed.roster, null, 1))
    await expectRefusal(
      verifyRoster(reformatted, signed.signature, rootPublic, { highestSeenVersion: 0, now: NOW }),
      'ROSTER_SIGNATURE',
    )
    for (let index = 0; index < signed.bytes.byteLength; index += 1) {
      await expectRefusal(
        verifyRoster(flipBit(signed.bytes, index, index % 8), signed.signature, rootPublic, {
          highestSeenVersion: 0,
          now: NOW,
        }),
        'ROSTER_SIGNATURE',
      )
    }
    for (let index = 0; index < signed.signature.byteLength; index += 1) {
      await expectRefusal(
        verifyRoster(signed.bytes, flipBit(signed.signature, index, 7 - (index % 8)), rootPublic, {
          highestSeenVersion: 0,
          now: NOW,
        }),
        'ROSTER_SIGNATURE',
      )
    }
  })

  it('refuses an older version than the highest seen (ROSTER_ROLLBACK) and accepts the same or a newer one', async () => {
    const { root, rootPublic, roster } = await makeInbox(2)
    const v1 = await signRoster(root, { version: 1, members: roster.members, now: NOW })
    const v2 = await renewRoster(root, v1.roster, { now: NOW + DAY, members: roster.members.slice(0, 2) })
    expect(v2.roster.version).toBe(2)
    const seen = await verifyRoster(v2.bytes, v2.signature, rootPublic, { highestSeenVersion: 1, now: NOW + DAY })
    expect(seen.members).toHaveLength(2)
    const message = await expectRefusal(
      verifyRoster(v1.bytes, v1.signature, rootPublic, { highestSeenVersion: seen.version, now: NOW + DAY }),
      'ROSTER_ROLLBACK',
    )
    expect(message).toContain('version 1 after version 2')
    expect(
      (await verifyRoster(v2.bytes, v2.signature, rootPublic, { highestSeenVersion: 2, now: NOW + DAY })).version,
    ).toBe(2)
  })

  it('refuses a stale roster once it expires (ROSTER_EXPIRED), to the millisecond', async () => {
    const { root, rootPublic, roster } = await makeInbox(1)
    const signed = await signRoster(root, { version: 3, members: roster.members, now: NOW })
    const lastMoment = NOW + ROSTER_LIFETIME_MS - 1
    expect(
      (await verifyRoster(signed.bytes, signed.signature, rootPublic, { highestSeenVersion: 3, now: lastMoment }))
        .version,
    ).toBe(3)
    const message = await expectRefusal(
      verifyRoster(signed.bytes, signed.signature, rootPublic, { highestSeenVersion: 3, now: lastMoment + 1 }),
      'ROSTER_EXPIRED',
    )
    expect(message).toContain('start the desktop')
  })

  it('refuses signed but malformed content (ROSTER_INVALID), and refuses to sign it', async () => {
    const { root, rootPublic, roster } = await makeInbox(1)
    const [agentRecord, deskRecord] = roster.members
    for (const content of [
      'not json',
      JSON.stringify({ v: 1, version: 2, issuedAt: NOW, expiresAt: NOW, members: [] }),
      JSON.stringify({ v: 1, version: 2, issuedAt: NOW, expiresAt: NOW + DAY, members: [deskRecord, deskRecord] }),
      // A record whose id belongs to another member's key: one member posing as another.
      JSON.stringify({
        v: 1,
        version: 2,
        issuedAt: NOW,
        expiresAt: NOW + DAY,
        members: [{ ...deskRecord, id: agentRecord!.id }],
      }),
      JSON.stringify({ v: 1, version: 2, issuedAt: NOW, expiresAt: NOW + DAY, members: [], extra: true }),
    ]) {
      const bytes = utf8(content)
      await expectRefusal(
        verifyRoster(bytes, await signBytes(root.signing, bytes), rootPublic, { highestSeenVersion: 0, now: NOW }),
        'ROSTER_INVALID',
      )
    }
    await expectRefusal(
      signRoster(root, { version: 2, members: [deskRecord!, deskRecord!], now: NOW }),
      'ROSTER_INVALID',
    )
    await expectRefusal(
      signRoster(root, { version: 2, members: [{ ...deskRecord!, id: agentRecord!.id }], now: NOW }),
      'ROSTER_INVALID',
    )
  })

  it('refuses a pinned key that is not a key (KEY_INVALID)', async () => {
    const { root, roster } = await makeInbox(1)
    const signed = await signRoster(root, { version: 1, members: roster.members, now: NOW })
    await expectRefusal(
      verifyRoster(signed.bytes, signed.signature, 'abc', { highestSeenVersion: 0, now: NOW }),
      'KEY_INVALID',
    )
  })

  it('says renewal is due 7 days before expiry', async () => {
    const root = await loadRootKeys((await generateRootIdentity()).secret)
    const { roster } = await signRoster(root, { version: 1, members: [], now: NOW })
    expect(ROSTER_RENEW_BEFORE_MS).toBe(7 * DAY)
    expect(rosterRenewal(roster, NOW)).toBe('fresh')
    expect(rosterRenewal(roster, NOW + 53 * DAY - 1)).toBe('fresh')
    expect(rosterRenewal(roster, NOW + 53 * DAY)).toBe('renew')
    expect(rosterRenewal(roster, NOW + 60 * DAY - 1)).toBe('renew')
    expect(rosterRenewal(roster, NOW + 60 * DAY)).toBe('expired')
    const renewed = await renewRoster(root, roster, { now: NOW + 53 * DAY })
    expect(renewed.roster).toMatchObject({ version: 2, expiresAt: NOW + 113 * DAY, members: [] })
    expect(rosterRenewal(renewed.roster, NOW + 53 * DAY)).toBe('fresh')
  })
})
