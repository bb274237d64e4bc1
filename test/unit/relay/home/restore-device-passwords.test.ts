// A phone's password record the relay lost (its storage reset, the key removed) is written again at the
// next desktop start, as it was (same version, same agents: the phone takes it as the record it had),
// against a real nats-server set up as a person does; one the relay still holds is left untouched. And
// `--phones` is a standing rule: a phone paired later gets its record when it is paired.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Kvm } from '@nats-io/kv'
import { jetstream } from '@nats-io/jetstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../../cli/main'
import { loadMemberKeys, verifyRoster, type MemberSecret } from '../../../../relay/crypto'
import { openDesktopLink } from '../../../../relay/home/desktop-link'
import { openDevicePasswords, passwordsRecordKey } from '../../../../relay/home/passwords-record'
import { loadRemotePasswords } from '../../../../relay/home/remote-passwords'
import { DEVICE_FILES, loadRosterAndSettings } from '../../../../relay/home/state'
import { BUCKETS } from '../../../../relay/nats/templates'
import { getEntry } from '../../../../relay/pairing'
import { renewRelayAtStart } from '../../../../relay/renewal'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { memoryIo } from '../../cli/memory-io'
import { pipeIo } from '../../cli/relay/pipe-io'
import { setUpRelayDesks, type RelayDesks } from '../../core/relay-desks'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the password record restore tests: ${skip}`)
const CHECKS = { allowOutdatedLoopback: true }

describe.skipIf(skip)("a desktop start restores the phones' password records the relay lost (real nats-server)", () => {
  let desks: RelayDesks
  beforeAll(async () => {
    desks = await setUpRelayDesks('restore-passwords-', ['ci-job'], 'phone-b')
  }, 120_000)
  afterAll(() => desks?.close())

  /** The first desktop's stored roster, verified against its pinned root key. */
  const rosterOfDeskA = async () => {
    const { roster: stored, settings } = await loadRosterAndSettings(desks.homeA)
    return verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, {
      highestSeenVersion: 0,
      now: Date.now(),
    })
  }

  /** The relay's record for `deviceId` as the desktop reads it: its revision, or undefined when gone. */
  const recordOnRelay = async (deviceId: string) => {
    const link = await openDesktopLink(desks.homeA)
    try {
      return await getEntry(link.nc, BUCKETS.roster, passwordsRecordKey(deviceId))
    } finally {
      await link.nc.close()
    }
  }

  it('writes a lost record again at the same version, and leaves a held one as it is', async () => {
    const io = memoryIo({ ASK_USER_HOME: desks.homeA })
    expect(await main(['relay', 'passwords', 'allow', 'ci-job', '--on', 'phone-b'], io), io.err()).toBe(0)
    const phoneSecret = JSON.parse(await readFile(join(desks.homeB, DEVICE_FILES.device), 'utf8')) as MemberSecret
    const phone = await loadMemberKeys(phoneSecret)
    const written = await recordOnRelay(phone.member.id)
    expect(written).toBeDefined()

    // A start while the relay holds it writes nothing.
    expect(await renewRelayAtStart(desks.homeA, { server: CHECKS })).toMatchObject({ published: true })
    expect((await recordOnRelay(phone.member.id))?.revision).toBe(written!.revision)

    // The relay loses it; the next start writes it again, and the phone opens the same setting.
    const link = await openDesktopLink(desks.homeA)
    try {
      const kv = await new Kvm(jetstream(link.nc, { checkAPI: false })).open(BUCKETS.roster)
      await kv.delete(passwordsRecordKey(phone.member.id))
    } finally {
      await link.nc.close()
    }
    expect(await recordOnRelay(phone.member.id)).toBeUndefined()
    const start = await renewRelayAtStart(desks.homeA, { server: CHECKS })
    expect(start).toMatchObject({ published: true })
    expect(start.role === 'desktop' ? start.problem : 'not a desktop').toBeUndefined()
    const restored = await recordOnRelay(phone.member.id)
    expect(restored).toBeDefined()
    const roster = await rosterOfDeskA()
    const setting = await loadRemotePasswords(desks.homeA)
    const agent = roster.members.find((member) => member.name === 'ci-job')!
    expect(
      await openDevicePasswords(phone, restored!.value, { roster, highestVersion: setting.devicesVersion! }),
    ).toEqual({ version: setting.devicesVersion, agents: [agent.id] })
  }, 60_000)

  it('`allow NAME --phones` holds for a phone paired later: it gets its record at pairing; `deny --on` lifts the rule', async () => {
    const passwords = async (...args: string[]) => {
      const io = memoryIo({ ASK_USER_HOME: desks.homeA })
      const code = await main(['relay', 'passwords', ...args], io)
      return { code, out: io.out(), err: io.err() }
    }
    expect(await passwords('allow', 'ci-job', '--phones')).toMatchObject({
      code: 0,
      err: 'This desk and every paired device (and any paired later) may now answer password questions of "ci-job" through the relay; the answer is sealed to the agent alone.\n',
    })
    expect((await passwords('list')).out).toMatch(
      /^ci-job\tallowed .*\talso on every paired device, and any paired later$/m,
    )

    // A second phone is paired after the rule was set.
    const lateHome = join(desks.root, 'phone-c-home')
    const desk = pipeIo({ ASK_USER_HOME: desks.homeA })
    const device = pipeIo({ ASK_USER_HOME: lateHome })
    const pairing = main(['relay', 'pair'], desk)
    const line = (await desk.waitForOut(/^(AUP1:\S+)$/m, pairing))[1]!
    const joining = main(['relay', 'join', '--name', 'phone-c'], device)
    device.stdin.end(`${line}\n`)
    await desk.waitForOut(/Confirmation code: \d{6}/, pairing)
    desk.stdin.end('yes\n')
    expect(await pairing).toBe(0)
    expect(await joining).toBe(0)

    const late = await loadMemberKeys(
      JSON.parse(await readFile(join(lateHome, DEVICE_FILES.device), 'utf8')) as MemberSecret,
    )
    const record = await recordOnRelay(late.member.id)
    expect(record).toBeDefined()
    const roster = await rosterOfDeskA()
    const agent = roster.members.find((member) => member.name === 'ci-job')!
    expect((await openDevicePasswords(late, record!.value, { roster, highestVersion: 0 })).agents).toEqual([agent.id])

    // Stopping one phone lifts the rule for phones paired from then on; the others keep theirs.
    expect((await passwords('deny', 'ci-job', '--on', 'phone-b')).code).toBe(0)
    const listed = (await passwords('list')).out
    expect(listed).not.toMatch(/any paired later/)
    expect(listed).toMatch(/^ci-job\tallowed .*\talso on phone-c$/m)
  }, 60_000)
})
