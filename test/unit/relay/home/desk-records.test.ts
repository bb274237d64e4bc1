// The desktops' shared credential records (relay/home/desk-records.ts), without a relay: the merge is a
// union that never lifts a revocation, and only a desktop of the roster can write records another opens.
import { describe, expect, it } from 'vitest'
import {
  generateMemberIdentity,
  generateRootIdentity,
  loadMemberKeys,
  loadRootKeys,
  signRoster,
  type MemberKeys,
} from '../../../../relay/crypto'
import {
  mergeDeskRecords,
  openDeskRecords,
  sealDeskRecords,
  type DeskRecords,
} from '../../../../relay/home/desk-records'

const keysFor = async (name: string, role: 'desktop' | 'device'): Promise<MemberKeys> =>
  loadMemberKeys((await generateMemberIdentity(name, role)).secret)
const device = (nkey: string, expiresAt: number) => ({ renewedAt: expiresAt - 1000, expiresAt, nkey })

describe('desk records', () => {
  it('merge: every device (the later credential), every revocation (the later time), no revoked device', () => {
    const first: DeskRecords = {
      v: 1,
      devices: { laptop: device('UL', 2000), tablet: device('UT', 1000) },
      revoked: { UOLD: 5 },
    }
    const second: DeskRecords = {
      v: 1,
      devices: { tablet: device('UT', 3000), phone: device('UP', 1500) },
      revoked: { UOLD: 9, UP: 7 },
    }
    expect(mergeDeskRecords(first, second)).toEqual({
      v: 1,
      devices: { laptop: device('UL', 2000), tablet: device('UT', 3000) },
      revoked: { UOLD: 9, UP: 7 },
    })
    // An older copy that still lists the revoked phone does not bring it back.
    const older: DeskRecords = { v: 1, devices: { phone: device('UP', 9000) }, revoked: {} }
    expect(mergeDeskRecords(older, mergeDeskRecords(first, second)).devices.phone).toBeUndefined()
    expect(mergeDeskRecords(older, mergeDeskRecords(first, second)).revoked.UP).toBe(7)
  })

  it('opens only records signed by a desktop of the roster, unchanged, and sealed to the reader', async () => {
    const root = await loadRootKeys((await generateRootIdentity()).secret)
    const [home, office, outsider, laptop] = await Promise.all([
      keysFor('home', 'desktop'),
      keysFor('office', 'desktop'),
      keysFor('outsider', 'desktop'),
      keysFor('laptop', 'device'),
    ])
    const { roster } = await signRoster(root, {
      version: 1,
      members: [home.member, office.member, laptop.member],
      now: Date.now(),
    })
    const records: DeskRecords = { v: 1, devices: { [laptop.member.id]: device('UL', 2000) }, revoked: { UX: 1 } }
    const stored = await sealDeskRecords(home, roster, records)
    expect(await openDeskRecords(office, roster, stored)).toEqual(records)
    expect(await openDeskRecords(home, roster, stored)).toEqual(records)
    // Not a recipient: a desktop outside the roster.
    expect(await openDeskRecords(outsider, roster, stored)).toBeUndefined()
    // Written by a device of the roster, or by a desktop outside it: refused.
    expect(await openDeskRecords(office, roster, await sealDeskRecords(laptop, roster, records))).toBeUndefined()
    expect(await openDeskRecords(office, roster, await sealDeskRecords(outsider, roster, records))).toBeUndefined()
    // A flipped bit anywhere: refused.
    for (const at of [10, stored.length - 10]) {
      const flipped = new Uint8Array(stored)
      flipped[at]! ^= 1
      expect(await openDeskRecords(office, roster, flipped)).toBeUndefined()
    }
  })
})
