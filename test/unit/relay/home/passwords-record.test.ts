// A phone's password record (`roster/pw.<device>`) without a server: only the device it is addressed and
// sealed to opens it, only a desktop of the roster can have signed it, an older version is a rollback,
// an agent the roster no longer lists is ignored, and the relay learns nothing of the list from its size.
import { describe, expect, it } from 'vitest'
import { signRoster, verifyRoster } from '../../../../relay/crypto/roster'
import { openDevicePasswords, sealDevicePasswords } from '../../../../relay/home/passwords-record'
import { makeInbox, makeMember, NOW } from '../crypto-fixtures'

const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'ACCEPTED',
    (error: { code?: string }) => error.code ?? String(error),
  )

describe("a phone's password record", () => {
  it('the device opens a record from a desktop of the roster: its version and the allowed agents', async () => {
    const { roster, devices, agent } = await makeInbox(2)
    const [desktop, phone] = [devices[0]!, devices[1]!]
    const stored = await sealDevicePasswords(desktop, phone.member, { version: 3, agents: [agent.member.id] })
    expect(await openDevicePasswords(phone, stored, { roster, highestVersion: 0 })).toEqual({
      version: 3,
      agents: [agent.member.id],
    })
    // The same version again is taken (a reload reads the record it already holds).
    expect(await openDevicePasswords(phone, stored, { roster, highestVersion: 3 })).toEqual({
      version: 3,
      agents: [agent.member.id],
    })
    // Padded: an empty list and a list of one are the same size on the relay.
    const empty = await sealDevicePasswords(desktop, phone.member, { version: 4, agents: [] })
    expect(empty.byteLength).toBe(stored.byteLength)
    // The relay never sees an agent id.
    expect(new TextDecoder().decode(stored)).not.toContain(agent.member.id)
  })

  it("refuses a forged signer, a device as signer, another device's record, a rollback and a changed byte", async () => {
    const { roster, devices, agent } = await makeInbox(3)
    const [desktop, phone, tablet] = [devices[0]!, devices[1]!, devices[2]!]
    const record = { version: 2, agents: [agent.member.id] }
    const options = { roster, highestVersion: 0 }
    // A desktop key the roster does not list (the relay's operator making one up).
    const stranger = await makeMember('desk', 'desktop')
    const forged = await sealDevicePasswords(stranger, phone.member, record)
    expect(await codeOf(openDevicePasswords(phone, forged, options))).toBe('RELAY_PASSWORDS_SIGNATURE')
    // A member of the roster, but not a desktop.
    const byTablet = await sealDevicePasswords(tablet, phone.member, record)
    expect(await codeOf(openDevicePasswords(phone, byTablet, options))).toBe('RELAY_PASSWORDS_SIGNATURE')
    // The tablet's record copied to the phone's key: addressed to another device.
    const forTablet = await sealDevicePasswords(desktop, tablet.member, record)
    expect(await codeOf(openDevicePasswords(phone, forTablet, options))).toBe('RELAY_PASSWORDS_INVALID')
    // An older record served again after the phone took version 5.
    const old = await sealDevicePasswords(desktop, phone.member, record)
    expect(await codeOf(openDevicePasswords(phone, old, { roster, highestVersion: 5 }))).toBe(
      'RELAY_PASSWORDS_ROLLBACK',
    )
    // One character of the sealed part changed: the signature no longer holds.
    const at = new TextDecoder().decode(old.subarray(0, old.byteLength - 64)).indexOf('"ct":"') + 8
    const changed = new Uint8Array(old)
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41
    expect(await codeOf(openDevicePasswords(phone, changed, options))).toBe('RELAY_PASSWORDS_SIGNATURE')
    expect(await codeOf(openDevicePasswords(phone, new Uint8Array([1, 2, 3]), options))).toBe('RELAY_PASSWORDS_INVALID')
  })

  it('ignores an agent the roster no longer lists, and an id that is not an agent', async () => {
    const { root, roster, devices, agent } = await makeInbox(2)
    const [desktop, phone] = [devices[0]!, devices[1]!]
    const stored = await sealDevicePasswords(desktop, phone.member, {
      version: 1,
      agents: [agent.member.id, phone.member.id],
    })
    expect((await openDevicePasswords(phone, stored, { roster, highestVersion: 0 })).agents).toEqual([agent.member.id])
    const signed = await signRoster(root, {
      version: 2,
      members: roster.members.filter((member) => member.id !== agent.member.id),
      now: NOW,
    })
    const without = await verifyRoster(signed.bytes, signed.signature, root.publicKey, {
      highestSeenVersion: 1,
      now: NOW,
    })
    expect(await openDevicePasswords(phone, stored, { roster: without, highestVersion: 0 })).toEqual({
      version: 1,
      agents: [],
    })
  })
})
