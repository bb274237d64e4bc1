// Renewals against a real nats-server in operator mode with the real scoped credentials: the roster
// re-signed and published at every desktop start, each paired device's credential renewed sealed to it
// and picked up at its next connect, a removed device given none, an expired credential refused by the
// server, and the refusals of forged, replayed and rolled-back renewals.
import { fmtCreds, parseCreds } from '@nats-io/jwt'
import { fromSeed } from '@nats-io/nkeys'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import {
  generateMemberIdentity,
  loadMemberKeys,
  loadRootKeys,
  renewRoster,
  ROSTER_LIFETIME_MS,
  verifyRoster,
  verifyRosterSignature,
  type Member,
  type Roster,
} from '../../../../relay/crypto'
import { openDesktopLink, publishRoster } from '../../../../relay/home/desktop-link'
import {
  DEVICE_FILES,
  DeviceCredsSchema,
  loadRelayState,
  RELAY_FILES,
  RENEWALS_FILE,
  RenewalsSchema,
} from '../../../../relay/home/state'
import { RosterRecordSchema } from '../../../../relay/crypto'
import { mintRoleJwt } from '../../../../relay/nats/credentials'
import { loadRelayKeys } from '../../../../relay/nats/keys-file'
import { BUCKETS } from '../../../../relay/nats/templates'
import { connectRelay, getEntry, putEntry } from '../../../../relay/pairing'
import { credentialKey, renewRelayAtStart, sealDeviceCredential } from '../../../../relay/renewal'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { memoryIo } from '../memory-io'
import { pipeIo } from './pipe-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay renewal tests: ${skip}`)
const DAY = 86_400_000
const CHECKS = { allowOutdatedLoopback: true }

describe.skipIf(skip)('relay renewals against a real nats-server', () => {
  let root: string
  let home: string
  const deviceHomes: Record<string, string> = {}
  let server: RunningNatsServer
  let url: string
  let rootPublicKey: string

  const readCreds = async (name: string) =>
    DeviceCredsSchema.parse(JSON.parse(await readFile(join(deviceHomes[name]!, DEVICE_FILES.deviceCreds), 'utf8')))
  const storedRoster = async (folder: string): Promise<{ bytes: Uint8Array; signature: Uint8Array; text: string }> => {
    const text = await readFile(join(folder, RELAY_FILES.roster), 'utf8')
    const stored = RosterRecordSchema.parse(JSON.parse(text))
    return {
      bytes: Buffer.from(stored.bytes, 'base64url'),
      signature: Buffer.from(stored.signature, 'base64url'),
      text,
    }
  }
  const publishedRoster = async (deviceName: string, now = Date.now()): Promise<Roster> => {
    const creds = await readCreds(deviceName)
    const nc = await connectRelay(url, creds.creds, creds.natsName, CHECKS)
    try {
      const stored = RosterRecordSchema.parse(
        JSON.parse(new TextDecoder().decode((await getEntry(nc, BUCKETS.roster, 'current'))!.value)),
      )
      return await verifyRoster(
        Buffer.from(stored.bytes, 'base64url'),
        Buffer.from(stored.signature, 'base64url'),
        rootPublicKey,
        { highestSeenVersion: 0, now },
      )
    } finally {
      await nc.close()
    }
  }
  const pair = async (name: string): Promise<void> => {
    deviceHomes[name] = join(root, `${name}-home`)
    const desk = pipeIo({ ASK_USER_HOME: home })
    const device = pipeIo({ ASK_USER_HOME: deviceHomes[name]! })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m))[1]!
    const joining = main(['relay', 'join', '--name', name], device)
    device.stdin.end(`${line}\n`)
    await desk.waitForOut(/Confirmation code: \d{6}/)
    desk.stdin.end('yes\n')
    expect(await pairing).toBe(0)
    expect(await joining).toBe(0)
  }
  // What the relay holds at a device's credential key, read as that device.
  const credentialEntry = async (name: string): Promise<Uint8Array | undefined> => {
    const creds = await readCreds(name)
    const nc = await connectRelay(url, creds.creds, creds.natsName, CHECKS)
    try {
      return (await getEntry(nc, BUCKETS.roster, credentialKey(creds.natsName)))?.value
    } finally {
      await nc.close()
    }
  }
  // Writes `value` at `key` of the roster bucket with the desktop's rights: what a meddling relay can do too.
  const writeAsDesktop = async (key: string, value: Uint8Array): Promise<void> => {
    const link = await openDesktopLink(home)
    try {
      await putEntry(link.nc, BUCKETS.roster, key, value)
    } finally {
      await link.nc.close()
    }
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-renew-'))
    home = join(root, 'desk-home')
    const port = await freePort()
    url = `nats://127.0.0.1:${port}`
    const io = memoryIo({ ASK_USER_HOME: home })
    const args = [
      'relay',
      'init',
      '--self-hosted',
      join(root, 'relay'),
      '--origin',
      'https://inbox.example',
      '--loopback',
    ]
    expect(
      await main([...args, '--client-port', String(port), '--ws-port', String(await freePort()), '--url', url], io),
    ).toBe(0)
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
    rootPublicKey = (JSON.parse(await readFile(join(home, RELAY_FILES.settings), 'utf8')) as { rootPublicKey: string })
      .rootPublicKey
    await pair('laptop')
    await pair('tablet')
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('a desktop start re-signs the roster (version + 1, 60 more days), publishes it and renews the due device credentials', async () => {
    const before = await publishedRoster('laptop')
    const startedAt = Date.now() + 2 * DAY
    const result = await renewRelayAtStart(home, { now: () => startedAt })
    expect(result).toMatchObject({
      role: 'desktop',
      rosterVersion: before.version + 1,
      rosterExpiresAt: startedAt + ROSTER_LIFETIME_MS,
      published: true,
      warnings: [],
    })
    expect(result.role === 'desktop' && result.devicesRenewed.sort()).toEqual(['laptop', 'tablet'])
    expect(result.role === 'desktop' && result.problem).toBeUndefined()
    const published = await publishedRoster('laptop', startedAt)
    expect(published.version).toBe(before.version + 1)
    // The superseded roster is now a rollback for every verifier that has seen the new one.
    const old = await storedRoster(deviceHomes.laptop!)
    await expect(
      verifyRoster(old.bytes, old.signature, rootPublicKey, { highestSeenVersion: published.version, now: Date.now() }),
    ).rejects.toMatchObject({ code: 'ROSTER_ROLLBACK' })
    const renewals = RenewalsSchema.parse(JSON.parse(await readFile(join(home, RENEWALS_FILE), 'utf8')))
    for (const record of Object.values(renewals.devices))
      expect(record.expiresAt).toBe(Math.floor(startedAt / 1000) * 1000 + 7 * DAY)

    // Started again the same day: the roster is re-signed again, no credential is due yet.
    const again = await renewRelayAtStart(home, { now: () => startedAt + 60_000 })
    expect(again).toMatchObject({
      role: 'desktop',
      rosterVersion: before.version + 2,
      published: true,
      devicesRenewed: [],
    })
  }, 30_000)

  it('the device picks its renewed credential up at its next connect, and the relay accepts it', async () => {
    const before = await readCreds('laptop')
    const picked = await renewRelayAtStart(deviceHomes.laptop!)
    expect(picked).toMatchObject({ role: 'device', credentialRenewed: true, warnings: [] })
    const after = await readCreds('laptop')
    expect(after.expiresAt).toBeGreaterThan(before.expiresAt)
    expect(after.creds).not.toBe(before.creds)
    // The same nkey: the seed never travelled, only a new JWT for it.
    expect((await parseCreds(new TextEncoder().encode(after.creds))).key).toBe(
      (await parseCreds(new TextEncoder().encode(before.creds))).key,
    )
    await (await connectRelay(url, after.creds, after.natsName, CHECKS)).close()
    // It also took the newer roster the desktop published.
    expect(picked.role === 'device' && picked.rosterVersion).toBe((await publishedRoster('laptop')).version)
    expect(JSON.parse((await storedRoster(deviceHomes.laptop!)).text)).toEqual(
      JSON.parse((await storedRoster(home)).text),
    )
    // Connecting again: the same renewal is no news and no warning.
    expect(await renewRelayAtStart(deviceHomes.laptop!)).toMatchObject({
      role: 'device',
      credentialRenewed: false,
      warnings: [],
    })
  }, 30_000)

  it('a renewal not signed by a desktop of the roster, or an older one served again, is refused and the device keeps its credential', async () => {
    const creds = await readCreds('laptop')
    const laptop = await loadMemberKeys(
      JSON.parse(await readFile(join(deviceHomes.laptop!, DEVICE_FILES.device), 'utf8')),
    )
    const current = (await credentialEntry('laptop'))!
    // Someone with write access to the bucket (the relay's operator) seals a credential with a key of its own.
    const keys = await loadRelayKeys(home)
    const impostor = await loadMemberKeys((await generateMemberIdentity('impostor', 'desktop')).secret)
    const nkey = fromSeed(
      new TextEncoder().encode((await parseCreds(new TextEncoder().encode(creds.creds))).key),
    ).getPublicKey()
    const signer = {
      accountPublicKey: keys.accountPublicKey,
      signingSeed: keys.roleSigningSeeds.device,
      now: () => Date.now() + 5 * DAY,
    }
    const forged = await mintRoleJwt(signer, 'device', creds.natsName, nkey, 7 * 86_400)
    await writeAsDesktop(
      credentialKey(creds.natsName),
      await sealDeviceCredential(impostor, laptop.member as Member, forged),
    )
    const refused = await renewRelayAtStart(deviceHomes.laptop!)
    expect(refused).toMatchObject({ role: 'device', credentialRenewed: false })
    expect(refused.role === 'device' && refused.warnings).toEqual([
      expect.stringMatching(/RELAY_CREDENTIAL_SIGNATURE: .*not signed by a desktop of the roster/),
    ])
    expect(await readCreds('laptop')).toEqual(creds)

    // A newer renewal from the desktop, then the older one written back: refused as a rollback.
    const later = await renewRelayAtStart(home, { now: () => Date.now() + 4 * DAY })
    expect(later.role === 'desktop' && later.devicesRenewed.sort()).toEqual(['laptop', 'tablet'])
    expect(await renewRelayAtStart(deviceHomes.laptop!)).toMatchObject({ credentialRenewed: true })
    const newer = await readCreds('laptop')
    await writeAsDesktop(credentialKey(creds.natsName), current)
    const replayed = await renewRelayAtStart(deviceHomes.laptop!)
    expect(replayed.role === 'device' && replayed.warnings).toEqual([
      expect.stringMatching(/RELAY_CREDENTIAL_ROLLBACK: /),
    ])
    expect(await readCreds('laptop')).toEqual(newer)
  }, 30_000)

  it('a device refuses an older roster the relay serves again, and keeps the newer one', async () => {
    const kept = await storedRoster(deviceHomes.laptop!)
    const oldRoster = await storedRoster(deviceHomes.tablet!)
    expect(oldRoster.text).not.toBe(kept.text)
    await writeAsDesktop('current', new TextEncoder().encode(JSON.stringify(JSON.parse(oldRoster.text))))
    const result = await renewRelayAtStart(deviceHomes.laptop!)
    expect(result.role === 'device' && result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /\(ROSTER_ROLLBACK: the relay served roster version \d+ after version \d+ was seen.*keeps roster version \d+/,
        ),
      ]),
    )
    expect((await storedRoster(deviceHomes.laptop!)).text).toBe(kept.text)
  }, 30_000)

  it('a removed device gets no renewal, even while the desktop still has a record of its credential or is restored from a backup', async () => {
    const backup = join(root, 'backup-home')
    await cp(home, backup, { recursive: true })
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'remove', 'tablet'], io)).toBe(0)
    // As if the revocation push had failed: the record of its credential stays.
    const before = RenewalsSchema.parse(JSON.parse(await readFile(join(home, RENEWALS_FILE), 'utf8')))
    const tabletId = (await readCreds('tablet')).natsName
    const stale = {
      ...before,
      devices: {
        ...before.devices,
        [tabletId]: { renewedAt: 0, expiresAt: Date.now(), nkey: await parseCredsNkey(await readCreds('tablet')) },
      },
      revoked: {},
    }
    await writeFile(join(home, RENEWALS_FILE), JSON.stringify(stale))
    const result = await renewRelayAtStart(home, { now: () => Date.now() + 6 * DAY })
    expect(result.role === 'desktop' && result.devicesRenewed).toEqual(['laptop'])
    // The removed device itself is refused by the relay and told why.
    const tabletProblem = async (): Promise<string | undefined> => {
      const tablet = await renewRelayAtStart(deviceHomes.tablet!)
      return tablet.role === 'device' ? tablet.problem : undefined
    }
    await expect.poll(tabletProblem, { timeout: 10_000 }).toMatch(/^RELAY_CREDENTIAL_REFUSED: .*removed on the desktop/)

    // A home restored from before the removal takes the relay's newer root-signed roster and signs on top
    // of it: the removed device does not come back, and the version still goes up.
    const published = await publishedRoster('laptop', Date.now() + 6 * DAY)
    const restored = await renewRelayAtStart(backup, { now: () => Date.now() + 6 * DAY })
    expect(restored).toMatchObject({ role: 'desktop', rosterVersion: published.version + 1, published: true })
    // ... and learns from the desktops' shared records that the laptop's credential was renewed meanwhile
    // (and that the tablet is revoked), so it mints nothing again.
    expect(restored.role === 'desktop' && restored.devicesRenewed).toEqual([])
    const restoredRecords = RenewalsSchema.parse(JSON.parse(await readFile(join(backup, RENEWALS_FILE), 'utf8')))
    expect(Object.keys(restoredRecords.devices)).toEqual([(await readCreds('laptop')).natsName])
    const after = await publishedRoster('laptop', Date.now() + 6 * DAY)
    expect(after.version).toBe(published.version + 1)
    expect(after.members.map((member) => member.name)).not.toContain('tablet')
    const kept = await storedRoster(backup)
    expect(
      (await verifyRoster(kept.bytes, kept.signature, rootPublicKey, { highestSeenVersion: 0, now: Date.now() }))
        .version,
    ).toBe(after.version)
  }, 30_000)

  it('two roster changes at once: the one made on an older revision is refused (RELAY_ROSTER_CONFLICT) and publishes nothing', async () => {
    const first = await openDesktopLink(home)
    const second = await openDesktopLink(home)
    try {
      const rootKeys = await loadRootKeys((await loadRelayState(home)).root)
      const current = await verifyRosterSignature(second.roster.bytes, second.roster.signature, rootPublicKey)
      const renewal = await renewRoster(rootKeys, current, { now: Date.now() })
      const removal = await renewRoster(rootKeys, current, {
        now: Date.now(),
        members: current.members.filter((member) => member.name !== 'laptop'),
      })
      await publishRoster(second, renewal)
      await expect(publishRoster(first, removal)).rejects.toMatchObject({
        code: 'RELAY_ROSTER_CONFLICT',
        message: expect.stringMatching(/nothing was changed here\. Run the command again/),
      })
      const published = await publishedRoster('laptop')
      expect(published.version).toBe(renewal.roster.version)
      expect(published.issuedAt).toBe(renewal.roster.issuedAt)
    } finally {
      await first.nc.close()
      await second.nc.close()
    }
  }, 30_000)

  it('the server refuses an expired credential, and the device says to pair again', async () => {
    const creds = await readCreds('laptop')
    const keys = await loadRelayKeys(home)
    const nkey = fromSeed(new TextEncoder().encode((await parseCreds(new TextEncoder().encode(creds.creds))).key))
    const signer = {
      accountPublicKey: keys.accountPublicKey,
      signingSeed: keys.roleSigningSeeds.device,
      now: () => Date.now() - 8 * DAY,
    }
    const expired = await mintRoleJwt(signer, 'device', creds.natsName, nkey.getPublicKey(), 7 * 86_400)
    const expiredCreds = new TextDecoder().decode(fmtCreds(expired.jwt, nkey))
    await expect(connectRelay(url, expiredCreds, creds.natsName, CHECKS)).rejects.toThrow(
      /authorization violation|expired/i,
    )
    await writeFile(
      join(deviceHomes.laptop!, DEVICE_FILES.deviceCreds),
      JSON.stringify({ ...creds, creds: expiredCreds, expiresAt: expired.expiresAt }),
    )
    const result = await renewRelayAtStart(deviceHomes.laptop!)
    expect(result).toMatchObject({
      role: 'device',
      credentialRenewed: false,
      problem: expect.stringMatching(/^RELAY_CREDENTIAL_EXPIRED: .*pair it again/),
    })
    expect(result.role === 'device' && result.warnings).toEqual([
      expect.stringMatching(/credential expired on .*pair it again/),
    ])
  }, 30_000)

  it("offline, the desktop signs nothing (its stored roster stays the relay's) and warns once that copy is within 7 days of expiry", async () => {
    const offline = join(root, 'offline-home')
    await cp(home, offline, { recursive: true })
    const settingsPath = join(offline, RELAY_FILES.settings)
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as Record<string, unknown>
    await writeFile(settingsPath, JSON.stringify({ ...settings, url: `nats://127.0.0.1:${await freePort()}` }), {
      mode: 0o600,
    })
    const stored = await storedRoster(offline)
    const roster = JSON.parse(new TextDecoder().decode(stored.bytes)) as Roster
    const fresh = await renewRelayAtStart(offline, { now: () => roster.issuedAt + DAY })
    expect(fresh).toMatchObject({
      role: 'desktop',
      rosterVersion: roster.version,
      rosterExpiresAt: roster.expiresAt,
      published: false,
      warnings: [],
      problem: expect.any(String),
    })
    // A roster signed here and published later could overwrite another desktop's change: none is stored.
    expect(await storedRoster(offline)).toEqual(stored)
    const late = await renewRelayAtStart(offline, { now: () => roster.issuedAt + ROSTER_LIFETIME_MS - 3 * DAY })
    expect(late).toMatchObject({ role: 'desktop', rosterVersion: roster.version, published: false })
    expect(late.role === 'desktop' && late.warnings).toEqual([
      expect.stringMatching(/The relay's roster expires on .*could not publish its renewal.*relay renew/),
    ])
  }, 30_000)

  it('`relay renew` says what it did; a home without a relay is RELAY_NOT_INITIALIZED', async () => {
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'renew'], io)).toBe(0)
    expect(io.err()).toMatch(/^Roster version \d+ signed, valid until .*; published to the relay\.$/m)
    const none = memoryIo({ ASK_USER_HOME: join(root, 'no-relay') })
    expect(await main(['relay', 'renew'], none)).toBe(1)
    expect(none.err()).toMatch(/^Error: RELAY_NOT_INITIALIZED: .*relay init.*relay join/m)
  }, 30_000)
})

async function parseCredsNkey(creds: { creds: string }): Promise<string> {
  return fromSeed(
    new TextEncoder().encode((await parseCreds(new TextEncoder().encode(creds.creds))).key),
  ).getPublicKey()
}
