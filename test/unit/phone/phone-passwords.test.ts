// Password questions on the phone, against a real nats-server set up as a person does (`relay init`,
// `relay add-agent`, a device paired with `relay pair`/`join` standing in for the phone): the phone bridge
// answers a remote agent's secret ask only after `ask-user relay passwords allow NAME --on PHONE` on the
// first desktop, and the agent gets the password exactly; another agent's is refused FORBIDDEN with where
// to allow it; `deny … --on` takes it back at once; an older record served again is refused.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../../cli/main'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import { phoneSecretRefused } from '../../../phone/src/bridge/desk-frames'
import type { PhoneRecord } from '../../../phone/src/home/phone-record'
import { nodeConnect } from '../../../relay/exchange/node-connect'
import { openDesktopLink } from '../../../relay/home/desktop-link'
import { passwordsRecordKey } from '../../../relay/home/passwords-record'
import { DEVICE_FILES, loadDeviceCreds, loadRosterAndSettings } from '../../../relay/home/state'
import { BUCKETS } from '../../../relay/nats/templates'
import { connectRelay, getEntry, putEntry } from '../../../relay/pairing'
import type { Ask, AskOrigin } from '../../../shared/ask'
import type { UiServerFrame } from '../../../shared/ui'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { memoryIo } from '../cli/memory-io'
import { setUpRelayDesks, type RelayDesks } from '../core/relay-desks'
import { until } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping password questions on the phone: ${skip}`)

const PASSWORD = 'hunter2-correct-horse'
const SECRET = [{ id: 'pw', question: 'Deploy key passphrase?', secret: true }] as never
const WAIT = 30_000

/** The phone's record made from the paired device's home (what pairing leaves, as the phone keeps it). */
async function phoneRecordFrom(home: string, url: string): Promise<PhoneRecord> {
  const secret: unknown = JSON.parse(await readFile(join(home, DEVICE_FILES.device), 'utf8'))
  const creds = await loadDeviceCreds(home)
  const { roster, settings } = await loadRosterAndSettings(home)
  return {
    v: 1,
    url,
    rootPublicKey: settings.rootPublicKey,
    secret: secret as PhoneRecord['secret'],
    creds: creds.creds,
    natsName: creds.natsName,
    credsExpiresAt: creds.expiresAt,
    roster: {
      bytes: Buffer.from(roster.bytes).toString('base64url'),
      signature: Buffer.from(roster.signature).toString('base64url'),
    },
    highestRosterVersion: 1,
  }
}

describe.skipIf(skip)('password questions on the phone (real nats-server)', () => {
  let desks: RelayDesks
  beforeAll(async () => {
    desks = await setUpRelayDesks('phone-passwords-', ['ci-job', 'other-job'], 'phone-b')
  }, 120_000)
  afterAll(() => desks?.close())

  const passwords = async (...args: string[]) => {
    const io = memoryIo({ ASK_USER_HOME: desks.homeA })
    const code = await main(['relay', 'passwords', ...args], io)
    return { code, err: io.err() }
  }

  it('allowed on the desktop for this phone: the phone answers the secret ask and the agent gets the password exactly; deny takes it back; a rollback is refused', async () => {
    expect(await passwords('allow', 'ci-job', '--on', 'phone-b')).toEqual({
      code: 0,
      err: 'This desk and "phone-b" may now answer password questions of "ci-job" through the relay; the answer is sealed to the agent alone.\n',
    })
    const record = await phoneRecordFrom(desks.homeB, desks.relayUrl)
    const key = passwordsRecordKey(record.natsName)
    // Read as the phone can (a desktop writes every record but reads only its own).
    const asPhone = await connectRelay(desks.relayUrl, record.creds, record.natsName, { allowOutdatedLoopback: true })
    const firstRecord = await getEntry(asPhone, BUCKETS.roster, key).finally(() => asPhone.close())
    expect(firstRecord).toBeDefined()

    const saved: PhoneRecord[] = []
    const frames: UiServerFrame[] = []
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const bridge = createPhoneBridge(record, {
      connect: nodeConnect,
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
      retryMs: 200,
      saveRecord: async (next) => void saved.push(next),
    })
    bridge.onFrame((frame) => frames.push(frame))
    /** The origin of ask `askId` as the phone shows it now: its last listing, with later ask/origin frames applied. */
    const shownAsk = (askId: string): { origin?: AskOrigin | undefined } | undefined => {
      let shown: { origin?: AskOrigin | undefined } | undefined
      const listed = (ask: Ask | undefined) => (ask?.kind === 'question' ? { origin: ask.origin } : undefined)
      for (const frame of frames) {
        if (frame.type === 'snapshot') shown = listed(frame.pending.find((pending) => pending.askId === askId)) ?? shown
        if (frame.type === 'ask/added' && frame.ask.askId === askId) shown = listed(frame.ask)
        if (frame.type === 'ask/origin' && frame.askId === askId && shown) shown = { origin: frame.origin }
      }
      return shown
    }
    const rejected = (askId: string) => frames.find((f) => f.type === 'ask/rejected' && f.askId === askId)
    const secretAsk = async (agent: string) => {
      const asker = await desks.openAgent(agent)
      let askId: string | undefined
      const answer = asker.ask(SECRET, { onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)) })
      await until(() => askId !== undefined, 'the question to be written', WAIT)
      const shown = `q.${agent}.${askId!}`
      await until(() => shownAsk(shown) !== undefined, `the ask of ${agent} on the phone`, WAIT)
      return { answer, key: shown }
    }
    try {
      // Allowed: the card becomes answerable (the record may arrive just after the ask).
      const allowed = await secretAsk('ci-job')
      await until(() => shownAsk(allowed.key)?.origin?.unanswerable === undefined, 'the ask answerable', WAIT)
      expect(saved.at(-1)?.highestPasswordsVersion).toBe(1)
      bridge.answer(allowed.key, [{ id: 'pw', selected: [], custom: PASSWORD }])
      expect(await allowed.answer).toEqual({ answers: [{ id: 'pw', selected: [], custom: PASSWORD }] })
      await until(() => frames.some((f) => f.type === 'ask/accepted' && f.askId === allowed.key), 'accepted', WAIT)

      // Another agent: shown, refused FORBIDDEN with where to allow it.
      const other = await secretAsk('other-job')
      expect(shownAsk(other.key)?.origin?.unanswerable).toBe(phoneSecretRefused('other-job'))
      bridge.answer(other.key, [{ id: 'pw', selected: [], custom: PASSWORD }])
      await until(() => rejected(other.key) !== undefined, 'the refusal', WAIT)
      expect(rejected(other.key)).toEqual({
        type: 'ask/rejected',
        askId: other.key,
        code: 'FORBIDDEN',
        reason: phoneSecretRefused('other-job'),
      })

      // Denied on the desktop: the record is rewritten at once and the open ask turns unanswerable.
      const later = await secretAsk('ci-job')
      await until(() => shownAsk(later.key)?.origin?.unanswerable === undefined, 'the second ask answerable', WAIT)
      expect((await passwords('deny', 'ci-job', '--on', 'phone-b')).code).toBe(0)
      await until(() => shownAsk(later.key)?.origin?.unanswerable !== undefined, 'the ask refused again', WAIT)
      expect(shownAsk(later.key)?.origin?.unanswerable).toBe(phoneSecretRefused('ci-job'))
      await until(() => saved.at(-1)?.highestPasswordsVersion === 2, 'version 2 stored', WAIT)

      // The relay serving the first record (version 1, ci-job allowed) again: refused, still unanswerable.
      const link = await openDesktopLink(desks.homeA)
      try {
        await putEntry(link.nc, BUCKETS.roster, key, firstRecord!.value)
      } finally {
        await link.nc.close()
      }
      // Shown on the phone as a notice (not only logged), with its code.
      const rollback = () =>
        frames.find(
          (f) =>
            f.type === 'notice/added' &&
            f.notice.notice.text.startsWith("The desktop's password setting for this phone was refused") &&
            f.notice.notice.text.includes('RELAY_PASSWORDS_ROLLBACK'),
        )
      await until(() => rollback() !== undefined, 'the rollback refused', WAIT)
      expect(shownAsk(later.key)?.origin?.unanswerable).toBe(phoneSecretRefused('ci-job'))
      bridge.answer(later.key, [{ id: 'pw', selected: [], custom: PASSWORD }])
      await until(() => rejected(later.key) !== undefined, 'the refusal of the denied agent', WAIT)
      expect(rejected(later.key)).toMatchObject({ code: 'FORBIDDEN' })
      // What the phone stores holds the version only: no password, no list of agents.
      expect(JSON.stringify(saved)).not.toContain(PASSWORD)
      expect(JSON.stringify(saved)).not.toContain('ci-job')
    } finally {
      warn.mockRestore()
      await bridge.close()
    }
  }, 120_000)
})
