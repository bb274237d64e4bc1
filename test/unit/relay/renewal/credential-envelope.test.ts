// A renewed device credential as stored on the relay, without a server: only the device it is sealed
// to opens it, only a desktop of the roster can have signed it, and only a JWT for the device's own
// nkey that expires later than the one it holds is taken.
import { encodeUser, fmtCreds } from '@nats-io/jwt'
import { createAccount, createUser } from '@nats-io/nkeys'
import { describe, expect, it } from 'vitest'
import { openDeviceCredential, sealDeviceCredential } from '../../../../relay/renewal'
import { makeInbox } from '../crypto-fixtures'

const jwtFor = async (userPublicKey: string, exp: number): Promise<string> =>
  encodeUser('device', userPublicKey, createAccount(), {}, { exp })
const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'ACCEPTED',
    (error: { code?: string }) => error.code ?? String(error),
  )

describe('device credential renewals', () => {
  it('the device opens a renewal from a desktop of the roster and keeps its own seed', async () => {
    const { roster, devices } = await makeInbox(3)
    const [desktop, phone] = [devices[0]!, devices[1]!]
    const nkey = createUser()
    const currentCreds = new TextDecoder().decode(fmtCreds(await jwtFor(nkey.getPublicKey(), 1_000), nkey))
    const jwt = await jwtFor(nkey.getPublicKey(), 2_000)
    const stored = await sealDeviceCredential(desktop, phone.member, { jwt, expiresAt: 2_000 })
    const opened = await openDeviceCredential(phone, stored, { roster, currentCreds, currentExpiresAt: 1_000 })
    expect(opened?.expiresAt).toBe(2_000)
    expect(opened?.creds).toContain(jwt)
    expect(opened?.creds).toContain(new TextDecoder().decode(nkey.getSeed()))
    // The same one again is not news.
    expect(await openDeviceCredential(phone, stored, { roster, currentCreds, currentExpiresAt: 2_000 })).toBeUndefined()
  })

  it('refuses a renewal for another device, one signed by a device (not a desktop), and a JWT for another nkey', async () => {
    const { roster, devices } = await makeInbox(3)
    const [desktop, phone, tablet] = [devices[0]!, devices[1]!, devices[2]!]
    const nkey = createUser()
    const currentCreds = new TextDecoder().decode(fmtCreds(await jwtFor(nkey.getPublicKey(), 1_000), nkey))
    const options = { roster, currentCreds, currentExpiresAt: 1_000 }
    const forTablet = await sealDeviceCredential(desktop, tablet.member, {
      jwt: await jwtFor(nkey.getPublicKey(), 2_000),
      expiresAt: 2_000,
    })
    expect(await codeOf(openDeviceCredential(phone, forTablet, options))).toBe('RELAY_CREDENTIAL_INVALID')
    const byTablet = await sealDeviceCredential(tablet, phone.member, {
      jwt: await jwtFor(nkey.getPublicKey(), 2_000),
      expiresAt: 2_000,
    })
    expect(await codeOf(openDeviceCredential(phone, byTablet, options))).toBe('RELAY_CREDENTIAL_SIGNATURE')
    const otherKey = await sealDeviceCredential(desktop, phone.member, {
      jwt: await jwtFor(createUser().getPublicKey(), 2_000),
      expiresAt: 2_000,
    })
    expect(await codeOf(openDeviceCredential(phone, otherKey, options))).toBe('RELAY_CREDENTIAL_INVALID')
    const flipped = await sealDeviceCredential(desktop, phone.member, {
      jwt: await jwtFor(nkey.getPublicKey(), 2_000),
      expiresAt: 2_000,
    })
    // One character of the sealed part changed (still base64url): the desktop's signature no longer holds.
    const at = new TextDecoder().decode(flipped).indexOf('"ct":"') + 8
    flipped[at] = flipped[at] === 0x41 ? 0x42 : 0x41
    expect(await codeOf(openDeviceCredential(phone, flipped, options))).toBe('RELAY_CREDENTIAL_SIGNATURE')
    const older = await sealDeviceCredential(desktop, phone.member, {
      jwt: await jwtFor(nkey.getPublicKey(), 500),
      expiresAt: 500,
    })
    expect(await codeOf(openDeviceCredential(phone, older, options))).toBe('RELAY_CREDENTIAL_ROLLBACK')
  })
})
