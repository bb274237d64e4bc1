// `relay connect` against a real nats-server in operator mode: a second desktop joins the relay with the
// pairing line and the root recovery code. A wrong code is refused before anything is sent (the same line
// then still works), and the joined desktop holds the signing keys: it pairs a device and removes a
// member, and the first desktop's next renewal keeps both changes.
import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import {
  generateRootIdentity,
  parseRosterRecord,
  RosterRecordSchema,
  verifyRosterSignature,
  type Roster,
} from '../../../../relay/crypto'
import {
  DEVICE_FILES,
  DeviceCredsSchema,
  RELAY_FILES,
  RENEWALS_FILE,
  RenewalsSchema,
} from '../../../../relay/home/state'
import { connectRelay, getEntry } from '../../../../relay/pairing'
import { BUCKETS } from '../../../../relay/nats/templates'
import { AgentRelayFileSchema } from '../../../../cli/relay/agent-file'
import { openDesktopLink } from '../../../../relay/home/desktop-link'
import { publishRosterChange } from '../../../../relay/home/roster-change'
import { renewRelayAtStart } from '../../../../relay/renewal'
import { RELAY_KEYS_FILE } from '../../../../relay/nats/keys-file'
import { VAPID_FILE } from '../../../../relay/push/vapid'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { memoryIo } from '../memory-io'
import { pipeIo } from './pipe-io'

const DAY = 86_400_000
const CHECKS = { allowOutdatedLoopback: true }
const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay connect tests: ${skip}`)

describe.skipIf(skip)('relay connect: a second desktop joins an existing relay', () => {
  let root: string
  let home: string
  let secondHome: string
  let server: RunningNatsServer
  let url: string
  let recoveryCode: string

  const storedRoster = async (folder: string): Promise<Roster> => {
    const record = RosterRecordSchema.parse(JSON.parse(await readFile(join(folder, RELAY_FILES.roster), 'utf8')))
    const settings = JSON.parse(await readFile(join(folder, RELAY_FILES.settings), 'utf8')) as {
      rootPublicKey: string
    }
    return verifyRosterSignature(
      Buffer.from(record.bytes, 'base64url'),
      Buffer.from(record.signature, 'base64url'),
      settings.rootPublicKey,
    )
  }
  // The first desktop is named after this machine; only the others are compared by name.
  const names = (roster: Roster): string[] =>
    roster.members
      .map((member) =>
        member.name === 'office' || member.role !== 'desktop' ? `${member.role}:${member.name}` : 'desktop:first',
      )
      .sort()

  /** Runs `relay pair` in `deskHome` and `join` (a device) beside it, confirming when the codes match. */
  const pairDeviceFrom = async (deskHome: string, deviceName: string): Promise<void> => {
    const desk = pipeIo({ ASK_USER_HOME: deskHome })
    const device = pipeIo({ ASK_USER_HOME: join(root, `${deviceName}-home`) })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m, pairing))[1]!
    const joining = main(['relay', 'join', '--name', deviceName], device)
    device.stdin.end(`${line}\n`)
    const [deskCode, deviceCode] = await Promise.all([
      desk.waitForOut(/Confirmation code: (\d{6})/, pairing),
      device.waitForOut(/Confirmation code: (\d{6})/, joining),
    ])
    expect(deskCode[1]).toBe(deviceCode[1])
    expect(desk.err()).not.toMatch(/DESKTOP wants to join/)
    desk.stdin.end('yes\n')
    expect(await pairing).toBe(0)
    expect(await joining).toBe(0)
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-cli-connect-'))
    home = join(root, 'first-home')
    secondHome = join(root, 'second-home')
    const port = await freePort()
    url = `nats://127.0.0.1:${port}`
    const io = memoryIo({ ASK_USER_HOME: home })
    const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--loopback', '--url', url]
    expect(await main([...init, '--client-port', String(port), '--ws-port', String(await freePort())], io)).toBe(0)
    recoveryCode = /root recovery code: (\S+)/.exec(io.out())![1]!
    server = await startNatsServer(/start: nats-server -c (\S+)/.exec(io.out())![1]!)
    expect(
      await main(
        ['relay', 'add-agent', 'builder', '--out', join(root, 'builder.json')],
        memoryIo({ ASK_USER_HOME: home }),
      ),
    ).toBe(0)
    // A device first, so the first desktop has a VAPID key to hand on.
    await pairDeviceFrom(home, 'tablet')
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('refuses a wrong recovery code, a typo and another URL before sending anything; the same line then connects', async () => {
    const desk = pipeIo({ ASK_USER_HOME: home })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m, pairing))[1]!

    const otherRelay = (await generateRootIdentity()).recoveryCode
    const wrong = memoryIo({ ASK_USER_HOME: secondHome }, `${line}\n${otherRelay}\n`)
    expect(await main(['relay', 'connect'], wrong)).toBe(1)
    expect(wrong.err()).toMatch(/^Error: RELAY_RECOVERY_CODE_MISMATCH: .*nothing was sent/m)
    const typo = memoryIo({ ASK_USER_HOME: secondHome }, `${line}\n${recoveryCode.slice(0, -1)}A\n`)
    expect(await main(['relay', 'connect'], typo)).toBe(1)
    expect(typo.err()).toMatch(/^Error: RECOVERY_CODE_INVALID: /m)
    const otherUrl = memoryIo({ ASK_USER_HOME: secondHome }, `${line}\n${recoveryCode}\n`)
    expect(await main(['relay', 'connect', 'nats://127.0.0.1:1'], otherUrl)).toBe(1)
    expect(otherUrl.err()).toMatch(/^Error: RELAY_CONNECT_URL_MISMATCH: /m)
    const noCode = memoryIo({ ASK_USER_HOME: secondHome }, `${line}\n`)
    expect(await main(['relay', 'connect'], noCode)).toBe(1)
    expect(noCode.err()).toMatch(/^Error: RELAY_NO_RECOVERY_CODE: /m)
    // Nothing written, and nothing sent: the desk still waits and the same line is still unused.
    await expect(lstat(secondHome)).rejects.toThrow(/ENOENT/)
    expect(desk.out()).not.toMatch(/Confirmation code/)

    const second = pipeIo({ ASK_USER_HOME: secondHome })
    const connecting = main(['relay', 'connect', url, '--name', 'office'], second)
    second.stdin.end(`${line}\n${recoveryCode.toLowerCase()}\n`)
    const [deskCode, secondCode] = await Promise.all([
      desk.waitForOut(/Confirmation code: (\d{6})/, pairing),
      second.waitForOut(/Confirmation code: (\d{6})/, connecting),
    ])
    expect(deskCode[1]).toBe(secondCode[1])
    expect(desk.err()).toMatch(/A DESKTOP wants to join; it will be able to change the roster/)
    desk.stdin.end('yes\n')
    expect(await pairing).toBe(0)
    expect(await connecting).toBe(0)
    expect(second.err()).toMatch(/Connected as desktop "office"\. Roster version 4\./)

    // The joined desktop keeps what the first one keeps, 0600 in a 0700 home, and the same signing keys.
    expect((await lstat(secondHome)).mode & 0o777).toBe(0o700)
    for (const name of [RELAY_KEYS_FILE, VAPID_FILE, RELAY_FILES.root]) {
      expect((await lstat(join(secondHome, name))).mode & 0o777).toBe(0o600)
      expect(JSON.parse(await readFile(join(secondHome, name), 'utf8'))).toEqual(
        JSON.parse(await readFile(join(home, name), 'utf8')),
      )
    }
    for (const name of [RELAY_FILES.desktop, RELAY_FILES.roster, RELAY_FILES.settings])
      expect((await lstat(join(secondHome, name))).mode & 0o777).toBe(0o600)
    expect(names(await storedRoster(secondHome))).toEqual([
      'agent:builder',
      'desktop:first',
      'desktop:office',
      'device:tablet',
    ])
    // A second connect into the same home is refused before anything.
    const again = memoryIo({ ASK_USER_HOME: secondHome }, `${line}\n${recoveryCode}\n`)
    expect(await main(['relay', 'connect'], again)).toBe(1)
    expect(again.err()).toMatch(/^Error: RELAY_ALREADY_INITIALIZED: /m)
  }, 60_000)

  it('the second desktop pairs a device and removes a member; the first renews and keeps both changes', async () => {
    await pairDeviceFrom(secondHome, 'laptop')
    const removal = memoryIo({ ASK_USER_HOME: secondHome })
    expect(await main(['relay', 'remove', 'builder'], removal)).toBe(0)
    expect(removal.err()).toMatch(/Removed "builder"\. Roster version 6 is published/)

    const renew = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'renew'], renew)).toBe(0)
    const first = await storedRoster(home)
    expect(first.version).toBe(7)
    expect(names(first)).toEqual(['desktop:first', 'desktop:office', 'device:laptop', 'device:tablet'])
    const devices = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'devices'], devices)).toBe(0)
    expect(devices.out()).toMatch(/^laptop\tdevice\t/m)
    // The roster says which desktop signed it: the first one renewed last.
    const firstName = (
      JSON.parse(await readFile(join(home, RELAY_FILES.desktop), 'utf8')) as { member: { name: string } }
    ).member.name
    expect(devices.out()).toMatch(
      new RegExp(`^Roster version 7, signed by the root key on desktop "${firstName}", valid`),
    )
    expect(devices.out()).not.toMatch(/builder/)

    // Two days on, the first desktop renews the device the second one paired: it learnt its nkey from the
    // shared records (before them it knew only the devices it paired itself).
    const later = await renewRelayAtStart(home, { now: () => Date.now() + 2 * DAY, server: CHECKS })
    expect(later).toMatchObject({ role: 'desktop', published: true })
    expect(later.role === 'desktop' ? later.problem : 'not a desktop').toBeUndefined()
    expect(later.role === 'desktop' ? [...later.devicesRenewed].sort() : []).toEqual(['laptop', 'tablet'])
  }, 60_000)

  it('two desktops change the roster at once: the later one takes the newer roster, applies its change again, and both land', async () => {
    for (const agent of ['ci-a', 'ci-b'])
      expect(
        await main(
          ['relay', 'add-agent', agent, '--out', join(root, `${agent}.json`)],
          memoryIo({ ASK_USER_HOME: home }),
        ),
      ).toBe(0)
    // Both links read the same revision of the relay's roster (the first one publishes the agents).
    const first = await openDesktopLink(home)
    const second = await openDesktopLink(secondHome)
    try {
      expect(second.rosterRevision).toBe(first.rosterRevision)
      const without = (name: string) => async (current: Roster) => ({
        members: current.members.filter((member) => member.name !== name),
      })
      const onSecond = await publishRosterChange(second, secondHome, Date.now, without('ci-b'))
      const onFirst = await publishRosterChange(first, home, Date.now, without('ci-a'))
      expect(onFirst.roster.version).toBe(onSecond.roster.version + 1)
      for (const folder of [home, secondHome]) {
        const published = await openDesktopLink(folder)
        try {
          const roster = await verifyRosterSignature(
            published.roster.bytes,
            published.roster.signature,
            published.settings.rootPublicKey,
          )
          expect(roster.version).toBe(onFirst.roster.version)
          expect(roster.members.map((member) => member.name)).not.toContain('ci-a')
          expect(roster.members.map((member) => member.name)).not.toContain('ci-b')
          expect(roster.signedBy).toBe(first.desktop.member.id)
        } finally {
          await published.nc.close()
        }
      }
    } finally {
      await first.nc.close()
      await second.nc.close()
    }
  }, 60_000)

  it("an agent added on one desktop lands on top of the other desktop's newer roster, and both agents stay", async () => {
    const add = async (folder: string, agent: string) => {
      const io = memoryIo({ ASK_USER_HOME: folder })
      expect(await main(['relay', 'add-agent', agent, '--out', join(root, `${agent}.json`)], io), io.err()).toBe(0)
    }
    // The second desktop publishes first; the first desktop's stored roster is then a version behind.
    await add(secondHome, 'nightly')
    await add(home, 'review-bot')
    // What the relay serves, read as an agent reads it.
    const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'review-bot.json'), 'utf8')))
    const nc = await connectRelay(file.url, file.creds, 'review-bot', CHECKS)
    try {
      const record = parseRosterRecord((await getEntry(nc, BUCKETS.roster, 'current'))!.value)!
      const served = await verifyRosterSignature(record.bytes, record.signature, file.rootPublicKey)
      expect(served.members.map((member) => member.name)).toEqual(expect.arrayContaining(['nightly', 'review-bot']))
    } finally {
      await nc.close()
    }
  }, 60_000)

  it('each desktop revokes a device the other paired, and neither push lifts the other revocation', async () => {
    const refused = async (deviceName: string): Promise<string> => {
      const creds = DeviceCredsSchema.parse(
        JSON.parse(await readFile(join(root, `${deviceName}-home`, DEVICE_FILES.deviceCreds), 'utf8')),
      )
      try {
        await (await connectRelay(url, creds.creds, creds.natsName, CHECKS)).close()
        return 'connected'
      } catch (error) {
        return String(error)
      }
    }
    expect(await refused('tablet')).toBe('connected')
    const onSecond = memoryIo({ ASK_USER_HOME: secondHome })
    expect(await main(['relay', 'remove', 'tablet'], onSecond)).toBe(0)
    expect(onSecond.err()).toMatch(/Its relay credential is revoked/)
    await expect.poll(() => refused('tablet'), { timeout: 10_000 }).toMatch(/authorization violation/i)

    const onFirst = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'remove', 'laptop'], onFirst)).toBe(0)
    expect(onFirst.err()).toMatch(/Its relay credential is revoked/)
    await expect.poll(() => refused('laptop'), { timeout: 10_000 }).toMatch(/authorization violation/i)
    // The first desktop's push carried the second's revocation too: the tablet stays refused.
    expect(await refused('tablet')).toMatch(/authorization violation/i)
    for (const folder of [home, secondHome]) {
      await main(['relay', 'renew'], memoryIo({ ASK_USER_HOME: folder }))
      const renewals = RenewalsSchema.parse(JSON.parse(await readFile(join(folder, RENEWALS_FILE), 'utf8')))
      expect(Object.keys(renewals.revoked ?? {})).toHaveLength(2)
      expect(renewals.devices).toEqual({})
    }
    expect(await refused('tablet')).toMatch(/authorization violation/i)
  }, 60_000)
})
