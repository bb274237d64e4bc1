// `relay init --loopback` → the printed steps against a real nats-server (operator mode, real scoped
// credentials) → `relay pair` and `relay join` run together, fed through their stdin → `relay devices`
// → `relay remove`, after which the agent refuses that device's answers under the published roster.
import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { AgentRelayFileSchema } from '../../../../cli/relay/agent-file'
import { DEVICE_FILES, DeviceCredsSchema, RELAY_FILES, RENEWALS_FILE } from '../../../../relay/home/state'
import {
  acceptAnswer,
  loadMemberKeys,
  newReplyKey,
  openQuestion,
  sealAnswer,
  sealQuestion,
  verifyRoster,
  type Roster,
} from '../../../../relay/crypto'
import { BUCKETS } from '../../../../relay/nats/templates'
import { VAPID_FILE } from '../../../../relay/push/vapid'
import { connectRelay, getEntry } from '../../../../relay/pairing'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../../helpers/nats-server'
import { memoryIo } from '../memory-io'
import { pipeIo } from './pipe-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay pairing CLI tests: ${skip}`)

describe.skipIf(skip)('relay init --loopback, pair, join, devices, remove against a real nats-server', () => {
  let root: string
  let home: string
  let deviceHome: string
  let server: RunningNatsServer
  let url: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-cli-pair-'))
    home = join(root, 'desk-home')
    deviceHome = join(root, 'laptop-home')
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
    // The printed steps: start the server with the printed command, then pair from the desktop.
    const start = /start: nats-server -c (\S+)/.exec(io.out())
    expect(start).not.toBeNull()
    expect(io.out()).toMatch(/ask-user relay pair.*first connection makes the buckets/)
    server = await startNatsServer(start![1]!)
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  const readRosterFromRelay = async (creds: string, name: string, rootPublicKey: string): Promise<Roster> => {
    const nc = await connectRelay(url, creds, name, { allowOutdatedLoopback: true })
    try {
      const entry = await getEntry(nc, BUCKETS.roster, 'current')
      const stored = JSON.parse(new TextDecoder().decode(entry!.value)) as { bytes: string; signature: string }
      return await verifyRoster(
        Buffer.from(stored.bytes, 'base64url'),
        Buffer.from(stored.signature, 'base64url'),
        rootPublicKey,
        { highestSeenVersion: 0, now: Date.now() },
      )
    } finally {
      await nc.close()
    }
  }

  it('pairs a second device: same code on both sides, confirmed on the desktop, roster v+1 published, its own credential', async () => {
    expect(
      await main(
        ['relay', 'add-agent', 'builder', '--out', join(root, 'builder.json')],
        memoryIo({ ASK_USER_HOME: home }),
      ),
    ).toBe(0)
    const desk = pipeIo({ ASK_USER_HOME: home })
    const laptop = pipeIo({ ASK_USER_HOME: deviceHome })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m))[1]!
    const joining = main(['relay', 'join', '--name', 'laptop'], laptop)
    laptop.stdin.write(`${line}\n`)
    const [deskCode, laptopCode] = await Promise.all([
      desk.waitForOut(/Confirmation code: (\d{6})/),
      laptop.waitForOut(/Confirmation code: (\d{6})/),
    ])
    expect(deskCode[1]).toBe(laptopCode[1])
    expect(desk.err()).toMatch(/Pair "laptop"\? Type yes/)
    desk.stdin.write('yes\n')
    expect(await pairing).toBe(0)
    expect(await joining).toBe(0)
    expect(desk.err()).toMatch(/Paired "laptop"\. Roster version 3\./)
    expect(laptop.err()).toMatch(/Joined as "laptop"\. Roster version 3\./)

    // The secret line is on stdout only: no file of either home holds it.
    for (const [folder, names] of [
      [home, [...Object.values(RELAY_FILES).filter((name) => name !== RELAY_FILES.setup), RENEWALS_FILE]],
      [deviceHome, [...Object.values(DEVICE_FILES), RELAY_FILES.roster, RELAY_FILES.settings]],
    ] as const) {
      for (const name of names) {
        expect((await lstat(join(folder, name))).mode & 0o777).toBe(0o600)
        expect(await readFile(join(folder, name), 'utf8')).not.toContain(line.slice(5, 60))
      }
    }
    // The first connection made the buckets and consumed the setup credential.
    await expect(lstat(join(home, RELAY_FILES.setup))).rejects.toThrow(/ENOENT/)

    // The device connects with its own credential and reads the roster the desktop published: it lists it.
    const creds = DeviceCredsSchema.parse(
      JSON.parse(await readFile(join(deviceHome, DEVICE_FILES.deviceCreds), 'utf8')),
    )
    expect(creds.expiresAt - Date.now() / 1000).toBeGreaterThan(7 * 86_400 - 120)
    const settings = JSON.parse(await readFile(join(deviceHome, RELAY_FILES.settings), 'utf8')) as {
      rootPublicKey: string
      url: string
    }
    expect(settings.url).toBe(url)
    const roster = await readRosterFromRelay(creds.creds, creds.natsName, settings.rootPublicKey)
    expect(roster.version).toBe(3)
    expect(roster.members.map((member) => `${member.role}:${member.name}`).sort()).toEqual([
      'agent:builder',
      expect.stringMatching(/^desktop:/),
      'device:laptop',
    ])
    // The roster granted to the first device carries the VAPID public key it subscribes to push with (relay/push).
    expect(roster.push?.vapidPublic).toBe(
      (JSON.parse(await readFile(join(home, VAPID_FILE), 'utf8')) as { keys: { publicKey: string } }).keys.publicKey,
    )
    expect((await lstat(join(home, VAPID_FILE))).mode & 0o777).toBe(0o600)
  }, 60_000)

  it('lists the verified roster with added and last-renewal times', async () => {
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'devices'], io)).toBe(0)
    expect(io.out()).toMatch(/^Roster version 3, signed by the root key/)
    expect(io.out()).toMatch(/^laptop\tdevice\t\d{4}-\d\d-\d\d \d\d:\d\d\t\d{4}-\d\d-\d\d \d\d:\d\d$/m)
    expect(io.out()).toMatch(/^builder\tagent\t-\t-$/m)
    const onDevice = memoryIo({ ASK_USER_HOME: deviceHome })
    expect(await main(['relay', 'devices'], onDevice)).toBe(0)
    expect(onDevice.out()).toContain('laptop\tdevice')
  })

  it('a device named like an existing member is refused on the desktop and told no, and nothing changes', async () => {
    const stored = await readFile(join(home, RELAY_FILES.roster), 'utf8')
    const desk = pipeIo({ ASK_USER_HOME: home })
    const second = pipeIo({ ASK_USER_HOME: join(root, 'second-home') })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m))[1]!
    const joining = main(['relay', 'join', '--name', 'builder'], second)
    second.stdin.end(`${line}\n`)
    await desk.waitForOut(/Confirmation code: \d{6}/)
    desk.stdin.end('yes\n')
    expect(await pairing).toBe(1)
    expect(desk.err()).toMatch(/Error: RELAY_NAME_TAKEN: .*another --name/)
    expect(await joining).toBe(1)
    expect(second.err()).toMatch(/^Error: RELAY_PAIR_DECLINED: /m)
    expect(await readFile(join(home, RELAY_FILES.roster), 'utf8')).toBe(stored)
    await expect(lstat(join(root, 'second-home', DEVICE_FILES.device))).rejects.toThrow(/ENOENT/)
  }, 30_000)

  it('remove NAME: the agent, reading the published roster, refuses every answer of the removed device', async () => {
    const agentFile = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'builder.json'), 'utf8')))
    const agent = await loadMemberKeys(agentFile.agent)
    const laptop = await loadMemberKeys(JSON.parse(await readFile(join(deviceHome, DEVICE_FILES.device), 'utf8')))
    const before = await readRosterFromRelay(agentFile.creds, 'builder', agentFile.rootPublicKey)
    const reply = await newReplyKey()
    const askId = 'ask-remove-000001'
    const question = await sealQuestion({
      agent,
      roster: before,
      askId,
      kvKey: `q.builder.${askId}`,
      replyKey: reply.publicKey,
      body: new TextEncoder().encode('{"q":1}'),
    })
    const opened = await openQuestion(question.bytes, { device: laptop, roster: before, kvKey: `q.builder.${askId}` })
    const answer = await sealAnswer({
      device: laptop,
      replyKey: opened.header.replyKey,
      kvKey: `a.builder.${askId}`,
      askId,
      qHash: opened.qHash,
      body: new TextEncoder().encode('{"a":1}'),
    })
    const accept = (roster: Roster) =>
      acceptAnswer(answer, {
        replyKey: reply.privateKey,
        roster,
        askId,
        kvKey: `a.builder.${askId}`,
        qHash: question.qHash,
      })
    expect((await accept(before)).device.name).toBe('laptop')

    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'remove', 'laptop'], io)).toBe(0)
    expect(io.err()).toMatch(/Removed "laptop"\. Roster version 4 is published/)
    expect(io.err()).toMatch(/Its relay credential is revoked/)
    const after = await readRosterFromRelay(agentFile.creds, 'builder', agentFile.rootPublicKey)
    expect(after.version).toBe(4)
    await expect(accept(after)).rejects.toMatchObject({ code: 'NOT_A_MEMBER' })

    // The relay itself refuses the removed device's credential too (the account JWT's revocation).
    const creds = DeviceCredsSchema.parse(
      JSON.parse(await readFile(join(deviceHome, DEVICE_FILES.deviceCreds), 'utf8')),
    )
    const attempt = async (): Promise<string> => {
      try {
        await (await connectRelay(url, creds.creds, creds.natsName, { allowOutdatedLoopback: true })).close()
        return 'connected'
      } catch (error) {
        return String(error)
      }
    }
    await expect.poll(attempt, { timeout: 10_000 }).toMatch(/authorization violation/i)
  }, 30_000)

  it('remove refuses an unknown name and the desktop itself, and changes nothing', async () => {
    const stored = await readFile(join(home, RELAY_FILES.roster), 'utf8')
    const unknown = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'remove', 'nobody'], unknown)).toBe(1)
    expect(unknown.err()).toMatch(/^Error: RELAY_NO_SUCH_MEMBER: .*relay devices/)
    const desktopName = JSON.parse(await readFile(join(home, RELAY_FILES.desktop), 'utf8')).member.name as string
    const self = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'remove', desktopName], self)).toBe(1)
    expect(self.err()).toMatch(/^Error: RELAY_CANNOT_REMOVE_DESKTOP: /)
    expect(await main(['relay', 'remove'], memoryIo({ ASK_USER_HOME: home }))).toBe(2)
    expect(await readFile(join(home, RELAY_FILES.roster), 'utf8')).toBe(stored)
  })

  it('join refuses a home that already belongs to a relay, a missing line and a mangled one', async () => {
    const again = memoryIo({ ASK_USER_HOME: deviceHome }, 'AUP1:xyz\n')
    expect(await main(['relay', 'join'], again)).toBe(1)
    expect(again.err()).toMatch(/RELAY_ALREADY_INITIALIZED/)
    const empty = memoryIo({ ASK_USER_HOME: join(root, 'fresh1') }, '')
    expect(await main(['relay', 'join'], empty)).toBe(1)
    expect(empty.err()).toMatch(/^Error: RELAY_NO_LINE: .*paste the line/m)
    const mangled = memoryIo({ ASK_USER_HOME: join(root, 'fresh2') }, 'AUP1:bm90IGpzb24\n')
    expect(await main(['relay', 'join'], mangled)).toBe(1)
    expect(mangled.err()).toMatch(/^Error: RELAY_PAIR_LINE_INVALID: .*AUP1:/m)
    await expect(lstat(join(root, 'fresh2'))).rejects.toThrow(/ENOENT/)
  })
})
