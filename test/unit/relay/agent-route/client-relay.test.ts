// The client library's route (agent/relay-route.ts): with no local companion and a relay configured, an
// ask goes through a real operator-mode nats-server to a desk (RelayDesk standing in for another desktop)
// and comes back as the same checked answer; a local companion still comes first; a wrong relay file is
// refused before anything is sent.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../../agent/client'
import { AskAbortedError, START_HINT } from '../../../../agent/errors'
import { validateAsk } from '../../../../agent/validated-ask'
import { RelayDesk, type RemoteAsk, type RemoteAskSettled } from '../../../../relay/exchange'
import { openBucket, readEntry } from '../../../../relay/exchange/relay-kv'
import { BUCKETS } from '../../../../relay/nats/templates'
import { AskUserError } from '../../../../shared/error-codes'
import { startTestCompanion } from '../../../helpers/companion'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { connectUi } from '../../../helpers/ui-client'
import { nextEvent, startRelayWorld, type RelayWorld } from '../exchange/relay-world'
import { agentRelayFile, clearRelayTestOptions, setRelayTestOptions, writeAgentRelayFile } from './agent-relay-file'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the client's relay route tests: ${skip}`)

const GO = validateAsk({
  questions: [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }],
})

describe.skipIf(skip)('AskUserClient through the relay (real nats-server, a desk answering)', () => {
  let world: RelayWorld
  let desk: RelayDesk
  let dir: string
  /** An ASK_USER_HOME with no companion in it. */
  let emptyHome: string
  const clients: AskUserClient[] = []

  const client = (env: NodeJS.ProcessEnv): AskUserClient => {
    const made = new AskUserClient({ env: { ASK_USER_HOME: emptyHome, ...env }, name: 'relay-test' })
    clients.push(made)
    return made
  }
  const added = (agent: string): Promise<RemoteAsk> =>
    nextEvent<RemoteAsk>(
      (l) => desk.onAdded(l),
      (ask) => ask.agent.name === agent,
    )
  const refusal = async (promise: Promise<unknown>): Promise<AskUserError> => {
    const error: unknown = await promise.then(
      () => new Error('expected a refusal'),
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AskUserError)
    return error as AskUserError
  }

  beforeAll(async () => {
    world = await startRelayWorld({
      devices: ['laptop'],
      agents: ['ci-job', 'withdrawn-job', 'timeout-job', 'local-job'],
    })
    desk = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    dir = await mkdtemp(join(tmpdir(), 'client-relay-'))
    emptyHome = await mkdtemp(join(tmpdir(), 'client-relay-home-'))
    setRelayTestOptions()
  }, 60_000)
  afterAll(async () => {
    for (const made of clients) await made.close()
    clearRelayTestOptions()
    desk?.close()
    await world?.close()
    await rm(dir, { recursive: true, force: true })
    await rm(emptyHome, { recursive: true, force: true })
  })

  it('asks through the relay named by ASK_USER_RELAY_FILE and resolves with the desk’s checked answer', async () => {
    const file = await writeAgentRelayFile(dir, 'ci-job.json', agentRelayFile(world, 'ci-job'))
    const seen = added('ci-job')
    const answer = client({ ASK_USER_RELAY_FILE: file }).ask(GO, { title: 'Release' })
    const ask = await seen
    expect(ask.questions).toEqual(GO.questions)
    expect(ask.title).toBe('Release')
    expect(await desk.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
  }, 60_000)

  it('takes the inline ASK_USER_RELAY too, and withdraws the ask on the relay when the agent gives up', async () => {
    const inline = JSON.stringify(agentRelayFile(world, 'withdrawn-job'))
    const stop = new AbortController()
    const seen = added('withdrawn-job')
    const answer = client({ ASK_USER_RELAY: inline }).ask(GO, { signal: stop.signal })
    const ask = await seen
    const settled = nextEvent<RemoteAskSettled>(
      (l) => desk.onSettled(l),
      (s) => s.key === ask.key,
    )
    stop.abort()
    const error = await refusal(answer)
    expect(error).toBeInstanceOf(AskAbortedError)
    expect((error as AskAbortedError).reason).toBe('signal')
    expect(await settled).toEqual({ key: ask.key, outcome: 'withdrawn' })
  }, 60_000)

  it('a timeout ends the ask as locally (ASK_ABORTED, reason timeout) and withdraws it on the relay', async () => {
    const inline = JSON.stringify(agentRelayFile(world, 'timeout-job'))
    const seen = added('timeout-job')
    const started = Date.now()
    const answer = client({ ASK_USER_RELAY: inline }).ask(GO, { timeoutMs: 1_500 })
    const ask = await seen
    // The question carries when the agent stops waiting, so desks drop it even if no receipt comes.
    expect(ask.expiresAt).toBeGreaterThanOrEqual(started + 1_500)
    const settled = nextEvent<RemoteAskSettled>(
      (l) => desk.onSettled(l),
      (s) => s.key === ask.key,
    )
    const error = await refusal(answer)
    expect(error).toBeInstanceOf(AskAbortedError)
    expect([(error as AskAbortedError).reason, error.message]).toEqual([
      'timeout',
      'no answer within 1.5 s: the ask timed out and was withdrawn',
    ])
    expect(await settled).toEqual({ key: ask.key, outcome: 'withdrawn' })
  }, 60_000)

  it('a local companion comes first: with one running, the relay is not used', async () => {
    const tc = await startTestCompanion()
    try {
      const ui = await connectUi(tc.companion)
      const file = await writeAgentRelayFile(dir, 'local-job.json', agentRelayFile(world, 'local-job'))
      const local = new AskUserClient({ env: { ASK_USER_HOME: tc.home, ASK_USER_RELAY_FILE: file }, name: 'both' })
      clients.push(local)
      const onRelay: RemoteAsk[] = []
      const stopWatching = desk.onAdded((ask) => void (ask.agent.name === 'local-job' && onRelay.push(ask)))
      const answer = local.ask(GO)
      const ask = await ui.nextAsk()
      expect(ask.agent.name).toBe('both')
      await ui.answer(ask.askId, [{ id: 'go', selected: ['No'] }])
      expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
      stopWatching()
      expect(onRelay).toEqual([])
      await ui.close()
    } finally {
      await tc.cleanup()
    }
  }, 60_000)

  it('sends a secret question through the relay, answered in the secret bucket; never any ask of a client made with relay: false', async () => {
    const file = await writeAgentRelayFile(dir, 'local-only.json', agentRelayFile(world, 'local-job'))
    const secret = validateAsk({ questions: [{ id: 'pw', question: 'Password for deploy@prod:', secret: true }] })
    const seen = added('local-job')
    const viaSecret = client({ ASK_USER_RELAY_FILE: file }).ask(secret)
    const ask = await seen
    expect(ask.questions).toEqual([{ id: 'pw', question: 'Password for deploy@prod:', secret: true }])
    const password = [{ id: 'pw', selected: [], custom: 'correct horse' }]
    expect(await desk.answer(ask.key, password)).toEqual({ won: true })
    expect(await viaSecret).toEqual({ answers: password })
    const link = await world.link('laptop')
    const answerKey = ask.key.replace(/^q\./, 'a.')
    expect(await readEntry(await openBucket(link.nc, BUCKETS.inbox), answerKey)).toBeUndefined()
    expect(await readEntry(await openBucket(link.nc, BUCKETS.secret), answerKey)).toBeDefined()

    const onRelay: RemoteAsk[] = []
    const stopWatching = desk.onAdded((ask) => void onRelay.push(ask))
    const noCompanion = `no Ask User Companion is running (no endpoint.json in ${emptyHome}); ${START_HINT}`
    const localOnly = new AskUserClient({ env: { ASK_USER_HOME: emptyHome, ASK_USER_RELAY_FILE: file }, relay: false })
    clients.push(localOnly)
    const viaOptOut = await refusal(localOnly.ask(GO))
    expect([viaOptOut.code, viaOptOut.message]).toEqual(['NO_PROVIDER', noCompanion])
    stopWatching()
    expect(onRelay).toEqual([])
  }, 60_000)

  it('refuses a relay file others may read, before connecting (NO_PROVIDER, says what to do)', async () => {
    const file = await writeAgentRelayFile(dir, 'open.json', agentRelayFile(world, 'ci-job'), 0o644)
    const error = await refusal(client({ ASK_USER_RELAY_FILE: file }).ask(GO))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toBe(
      `refusing to use ${file}: other users may read or write it (mode 644); it holds the agent's relay credential. Run \`chmod 600 ${file}\``,
    )
  })

  it('refuses a relay URL with credentials in it, and a plaintext URL to another machine', async () => {
    const withUser = JSON.stringify({ ...agentRelayFile(world, 'ci-job'), url: 'tls://me:pw@relay.example:4222' })
    const user = await refusal(client({ ASK_USER_RELAY: withUser }).ask(GO))
    expect(user.code).toBe('NO_PROVIDER')
    expect(user.message).toBe(
      'ASK_USER_RELAY: The relay URL carries a user, password, query or fragment; remove it and pass credentials through the creds file.',
    )
    const plain = JSON.stringify({ ...agentRelayFile(world, 'ci-job'), url: 'nats://relay.example:4222' })
    const notTls = await refusal(client({ ASK_USER_RELAY: plain }).ask(GO))
    expect(notTls.message).toBe(
      'ASK_USER_RELAY: A relay that is not on this machine must use TLS; use tls:// or wss:// in the relay URL.',
    )
  })

  it('a credential the relay refuses ends the ask with NO_PROVIDER at once, not after the reach deadline', async () => {
    // The file says the credential is still good (a clock that differs), the relay knows better.
    const creds = await world.mint('agent', 'ci-job', 60, Date.now() - 120_000)
    const inline = JSON.stringify({ ...agentRelayFile(world, 'ci-job'), creds })
    const started = Date.now()
    const error = await refusal(client({ ASK_USER_RELAY: inline }).ask(GO))
    expect([error.code, error.message]).toEqual([
      'NO_PROVIDER',
      'the relay cannot take this ask: RELAY_DENIED: the relay refused this credential; it may have expired: ask the desktop for a new one',
    ])
    expect(Date.now() - started).toBeLessThan(20_000)
  }, 60_000)

  it('refuses an expired credential, a file that is not a relay file, and both variables at once', async () => {
    const expired = JSON.stringify({ ...agentRelayFile(world, 'ci-job'), credsExpiresAt: 1_000 })
    expect((await refusal(client({ ASK_USER_RELAY: expired }).ask(GO))).message).toBe(
      'the relay credential in ASK_USER_RELAY expired at 1970-01-01T00:16:40.000Z; ask the person for a new one (`ask-user relay add-agent NAME`)',
    )
    expect((await refusal(client({ ASK_USER_RELAY: '{"v":2}' }).ask(GO))).message).toBe(
      'ASK_USER_RELAY is not an agent relay file (v: Invalid input: expected 1); ask the person for a new one (`ask-user relay add-agent NAME`)',
    )
    const both = await refusal(client({ ASK_USER_RELAY: '{}', ASK_USER_RELAY_FILE: '/x' }).ask(GO))
    expect(both.message).toBe(
      'both ASK_USER_RELAY_FILE and ASK_USER_RELAY are set; keep one of them (the file, or its content inline)',
    )
  })
})
