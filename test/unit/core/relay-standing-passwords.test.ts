// A running desktop keeps its standing rule (`relay passwords allow NAME --phones`) for a phone paired on
// ANOTHER desktop: the roster listing the phone reaches this desk's bridge, which writes the phone's
// password record at once, instead of at its next start. Real nats-server, set up as a person does:
// `relay init` on desk A, `relay connect` of a second desktop C, `relay pair` + `relay join` of the phone on C.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { loadMemberKeys, verifyRoster, type MemberSecret } from '../../../relay/crypto'
import { openDesktopLink } from '../../../relay/home/desktop-link'
import { openDevicePasswords, passwordsRecordKey } from '../../../relay/home/passwords-record'
import { DEVICE_FILES, loadRosterAndSettings } from '../../../relay/home/state'
import { BUCKETS } from '../../../relay/nats/templates'
import { getEntry } from '../../../relay/pairing'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { memoryIo } from '../cli/memory-io'
import { pipeIo } from '../cli/relay/pipe-io'
import { WAIT_MS } from '../../helpers/waits'
import { setUpRelayDesks, type RelayDesks } from './relay-desks'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the standing password rule tests: ${skip}`)

/** Runs `relay pair` in `deskHome` and `line`'s joiner beside it (`join` or `connect`), confirming the code. */
async function pairFrom(deskHome: string, joiner: string[], joinerHome: string, extraInput = ''): Promise<void> {
  const desk = pipeIo({ ASK_USER_HOME: deskHome })
  const other = pipeIo({ ASK_USER_HOME: joinerHome })
  const pairing = main(['relay', 'pair'], desk)
  const line = (await desk.waitForOut(/^(AUP1:\S+)$/m, pairing))[1]!
  const joining = main(joiner, other)
  other.stdin.end(`${line}\n${extraInput}`)
  await desk.waitForOut(/Confirmation code: \d{6}/, pairing)
  desk.stdin.end('yes\n')
  expect(await pairing, desk.err()).toBe(0)
  expect(await joining, other.err()).toBe(0)
}

describe.skipIf(skip)('a standing --phones rule on a running desktop, for a phone paired on another one', () => {
  let desks: RelayDesks
  let deskA: TestCompanion | undefined
  let homeC: string

  beforeAll(async () => {
    desks = await setUpRelayDesks('standing-passwords-', ['ci-job'])
    homeC = join(desks.root, 'desk-c')
    await pairFrom(desks.homeA, ['relay', 'connect', '--name', 'office'], homeC, `${desks.recoveryCode}\n`)
  }, 120_000)
  afterAll(async () => {
    await deskA?.cleanup()
    await desks?.close()
  })

  it("the phone gets desk A's record as soon as A's bridge sees the roster listing it", async () => {
    const io = memoryIo({ ASK_USER_HOME: desks.homeA })
    expect(await main(['relay', 'passwords', 'allow', 'ci-job', '--phones'], io), io.err()).toBe(0)
    deskA = await startTestCompanion({ home: desks.homeA })
    await deskA.companion.relayReady

    // Desk C, which has no rule of its own, pairs a phone while A runs.
    const phoneHome = join(desks.root, 'phone-late')
    await pairFrom(homeC, ['relay', 'join', '--name', 'phone-late'], phoneHome)
    const phone = await loadMemberKeys(
      JSON.parse(await readFile(join(phoneHome, DEVICE_FILES.device), 'utf8')) as MemberSecret,
    )

    const link = await openDesktopLink(homeC)
    try {
      const key = passwordsRecordKey(phone.member.id)
      // Polled with a deadline: desk A's bridge writes the record on its own, and a desktop's credential may
      // read `pw.*` but not watch it (no consumer on those keys: least privilege), so there is no event.
      let record = await getEntry(link.nc, BUCKETS.roster, key)
      for (const deadline = Date.now() + WAIT_MS; record === undefined && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        record = await getEntry(link.nc, BUCKETS.roster, key)
      }
      expect(record, "desk A's record for the phone paired on desk C").toBeDefined()
      const { roster: stored, settings } = await loadRosterAndSettings(homeC)
      const roster = await verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, {
        highestSeenVersion: 0,
        now: Date.now(),
      })
      const agent = roster.members.find((member) => member.name === 'ci-job')!
      expect((await openDevicePasswords(phone, record!.value, { roster, highestVersion: 0 })).agents).toEqual([
        agent.id,
      ])
    } finally {
      await link.nc.close()
    }
  }, 120_000)
})
