// Remote passwords end to end: a remote agent's secret ask against a real nats-server in operator mode and
// two real companions (desk A, the first desktop, and desk B, a paired laptop), set up as a person would.
// Refused until the person runs `ask-user relay passwords allow NAME` on a desk; then that desk (and only
// that one) answers it, the answer travels sealed to the ask's reply key through the `secret` bucket,
// never `inbox`, no other agent can read it, history keeps "answered" without the text; `deny` takes it back.
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { AgentRelayFileSchema } from '../../../cli/relay/agent-file'
import { remoteSecretRefused } from '../../../core/relay-bridge/remote-asks'
import { HISTORY_FILE } from '../../../core/history'
import { openRemoteAsker, type RelayLink, type RemoteAsker } from '../../../relay/exchange'
import { INBOX_BUCKET } from '../../../relay/exchange/inbox-keys'
import { openBucket, readEntry } from '../../../relay/exchange/relay-kv'
import { loadDeviceCreds } from '../../../relay/home/state'
import { REMOTE_PASSWORDS_FILE } from '../../../relay/home/remote-passwords'
import { BUCKETS } from '../../../relay/nats/templates'
import { connectRelay } from '../../../relay/pairing'
import type { Ask } from '../../../shared/ask'
import type { UiServerFrame } from '../../../shared/ui'
import type { TestCompanion } from '../../helpers/companion'
import { natsServerSkipReason } from '../../helpers/nats-server'
import type { V2Window } from '../../helpers/ui-v2-window'
import { memoryIo } from '../cli/memory-io'
import { setUpRelayDesks, type RelayDesks } from './relay-desks'
import { addedTo, RELAY_WAIT, replyTo, startDeskCompanions } from './relay-windows'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the remote passwords tests: ${skip}`)

const PASSWORD = 'hunter2-correct-horse'
const SECRET = [{ id: 'pw', question: 'Deploy key passphrase?', secret: true }] as never

type OriginFrame = Extract<UiServerFrame, { type: 'ask/origin' }>

/** Polls `check` until it returns something other than undefined, within a generous deadline. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + RELAY_WAIT
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await delay(50)
  }
}

describe.skipIf(skip)('remote passwords (real nats-server, two companions)', () => {
  let root: string
  let homeA: string
  let homeB: string
  let desks: RelayDesks
  let relayUrl: string
  let deskA: TestCompanion
  let deskB: TestCompanion
  let windowA: V2Window
  let windowB: V2Window
  const links: RelayLink[] = []

  const agent = async (file: string): Promise<RemoteAsker> => {
    const config = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, file), 'utf8')))
    const { asker, link } = await openRemoteAsker(config, { allowOutdatedLoopback: true, reconnectWaitMs: 100 })
    links.push(link)
    return asker
  }
  const relay = async (home: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> => {
    const io = memoryIo({ ASK_USER_HOME: home })
    const code = await main(['relay', 'passwords', ...args], io)
    return { code, out: io.out(), err: io.err() }
  }
  const answerable = (ask: Ask): boolean => ask.kind === 'question' && ask.origin?.unanswerable === undefined
  /** The next `ask/origin` of `askId` whose origin makes it answerable here (`true`) or not (`false`). */
  const revisedOrigin = (window: V2Window, askId: string, answerableNow: boolean): Promise<OriginFrame> =>
    window.frames.next<OriginFrame>(
      (f) => f.type === 'ask/origin' && f.askId === askId && (f.origin.unanswerable === undefined) === answerableNow,
      RELAY_WAIT,
    )
  const answer = (window: V2Window, askId: string): void =>
    window.send({ type: 'ask/answer', askId, answers: [{ id: 'pw', selected: [], custom: PASSWORD }] })
  /** Asks the secret question as `ci-job`; resolves the relay's askId once it is written. */
  const askSecret = async (title: string, stop: AbortController) => {
    const asker = await agent('ci-job.json')
    let asked!: (askId: string) => void
    const relayAskId = new Promise<string>((resolve) => (asked = resolve))
    const result = asker
      .ask(SECRET, { title, signal: stop.signal, onEvent: (e) => void (e.type === 'asked' && asked(e.askId)) })
      .catch((error: unknown) => error)
    return { result, relayAskId }
  }

  beforeAll(async () => {
    desks = await setUpRelayDesks('relay-passwords-', ['ci-job', 'other-job'])
    ;({ root, homeA, homeB, relayUrl } = desks)
    ;({ deskA, deskB, windowA, windowB } = await startDeskCompanions(homeA, homeB))
  }, 90_000)

  afterAll(async () => {
    await windowA?.close()
    await windowB?.close()
    for (const link of links) await link.close().catch(() => undefined)
    await deskA?.cleanup()
    await deskB?.cleanup()
    await desks?.close()
  })

  it('`relay passwords` refuses a name that is not an agent of the roster, and lists nobody at first', async () => {
    expect(await relay(homeA, 'allow', 'nobody')).toEqual({
      code: 1,
      out: '',
      err: 'Error: RELAY_NO_SUCH_AGENT: The roster lists no agent called "nobody"; run `ask-user relay devices` for the names (on a paired device, `ask-user relay renew` first fetches the newest roster).\n',
    })
    // A device is a member, but not an agent: it asks nothing.
    expect((await relay(homeA, 'allow', 'laptop-b')).err).toContain('RELAY_NO_SUCH_AGENT')
    expect(await relay(homeA, 'list')).toMatchObject({ code: 0, out: '' })
    expect((await relay(homeA, 'allow')).code).toBe(2)
  })

  it('refused before allow; allowed on desk A it becomes answerable there only, and the agent gets the password through the secret bucket', async () => {
    const stop = new AbortController()
    const seenA = addedTo(windowA, 'Deploy key')
    const seenB = addedTo(windowB, 'Deploy key')
    const { result, relayAskId } = await askSecret('Deploy key', stop)
    const ask = await seenA
    expect(ask).toMatchObject({ origin: { kind: 'relay', unanswerable: remoteSecretRefused('ci-job') } })
    expect(ask).not.toHaveProperty('askpass')
    answer(windowA, ask.askId)
    expect(await replyTo(windowA, ask.askId)).toEqual({
      type: 'ask/rejected',
      askId: ask.askId,
      code: 'FORBIDDEN',
      reason:
        'Remote passwords are not allowed for "ci-job" on this desk. To answer it here, run: ask-user relay passwords allow ci-job',
    })

    // Allowed on desk A: its windows get the ask's new origin, answerable; desk B's stays refused.
    const revised = revisedOrigin(windowA, ask.askId, true)
    const allowed = await relay(homeA, 'allow', 'ci-job')
    expect(allowed.code).toBe(0)
    expect(allowed.err).toContain('may now answer password questions of "ci-job"')
    expect((await stat(join(homeA, REMOTE_PASSWORDS_FILE))).mode & 0o777).toBe(0o600)
    expect((await relay(homeA, 'list')).out).toMatch(/^ci-job\tallowed \d{4}-\d\d-\d\d \d\d:\d\d\n$/)
    expect((await revised).askId).toBe(ask.askId)
    const onB = await seenB
    answer(windowB, onB.askId)
    expect(await replyTo(windowB, onB.askId)).toMatchObject({ type: 'ask/rejected', code: 'FORBIDDEN' })

    answer(windowA, ask.askId)
    expect(await replyTo(windowA, ask.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await result).toEqual({ answers: [{ id: 'pw', selected: [], custom: PASSWORD }] })

    // On the relay: nothing in `inbox` for it, a sealed entry in `secret` without the password's bytes.
    const key = `a.ci-job.${await relayAskId}`
    const creds = await loadDeviceCreds(homeB)
    const nc = await connectRelay(relayUrl, creds.creds, creds.natsName, { allowOutdatedLoopback: true })
    try {
      expect(await readEntry(await openBucket(nc, INBOX_BUCKET), key)).toBeUndefined()
      const stored = await readEntry(await openBucket(nc, BUCKETS.secret), key)
      expect(stored).toBeDefined()
      expect(Buffer.from(stored!.value).includes(PASSWORD)).toBe(false)
      expect(Buffer.from(stored!.value).toString('base64').includes(Buffer.from(PASSWORD).toString('base64'))).toBe(
        false,
      )
    } finally {
      await nc.close()
    }

    // Another agent's credential cannot read it.
    const other = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'other-job.json'), 'utf8')))
    const { link } = await openRemoteAsker(other, { allowOutdatedLoopback: true, reconnectWaitMs: 100 })
    links.push(link)
    await expect(readEntry(await openBucket(link.nc, BUCKETS.secret), key)).rejects.toThrow(/permissions? violation/i)

    // History on desk A keeps "answered" and the question, never the password.
    const history = await eventually(async () => {
      const text = await readFile(join(homeA, HISTORY_FILE), 'utf8').catch(() => '')
      return text.includes('Deploy key') ? text : undefined
    }, 'the history entry')
    expect(history).toContain('"answered"')
    expect(history).not.toContain(PASSWORD)
  }, 90_000)

  it('deny takes it back: a pending secret ask becomes unanswerable again, and a new one is refused', async () => {
    expect((await relay(homeA, 'allow', 'ci-job')).err).toContain('Nothing changed')
    const stop = new AbortController()
    const seen = addedTo(windowA, 'Sudo', answerable)
    const { result } = await askSecret('Sudo', stop)
    const ask = await seen
    const revised = revisedOrigin(windowA, ask.askId, false)
    expect((await relay(homeA, 'deny', 'ci-job')).code).toBe(0)
    expect(await revised).toMatchObject({ askId: ask.askId, origin: { unanswerable: remoteSecretRefused('ci-job') } })
    answer(windowA, ask.askId)
    expect(await replyTo(windowA, ask.askId)).toMatchObject({ type: 'ask/rejected', code: 'FORBIDDEN' })
    expect((await relay(homeA, 'list')).out).toBe('')
    stop.abort()
    expect(await result).toMatchObject({ code: 'ASK_WITHDRAWN' })
  }, 60_000)
})
