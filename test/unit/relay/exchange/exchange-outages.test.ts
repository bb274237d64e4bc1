import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayDesk } from '../../../../relay/exchange'
import { nodeConnect, RelayLink, RemoteAsker, type RemoteAsk, type RemoteAskSettled } from '../../../../relay/exchange'
import { freePort, natsServerSkipReason } from '../../../helpers/nats-server'
import { startCuttableProxy, type CuttableProxy } from './cuttable-proxy'
import { nextEvent, startRelayWorld, startWorldDesk, until, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay/exchange outage tests: ${skip}`)

const QUESTIONS = [{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe.skipIf(skip)('relay exchange through outages (real nats-server, SIGKILL, a cut link)', () => {
  let world: RelayWorld
  let proxy: CuttableProxy
  const desks: RelayDesk[] = []

  const desk = (name: string): Promise<RelayDesk> => startWorldDesk(world, name, desks)
  const added = (d: RelayDesk, agent: string): Promise<RemoteAsk> =>
    nextEvent<RemoteAsk>(
      (l) => d.onAdded(l),
      (ask) => ask.agent.name === agent,
    )

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop'], agents: ['ci-nightly', 'devbox', 'sandbox'] })
    proxy = await startCuttableProxy(world.port)
  }, 60_000)
  afterAll(async () => {
    for (const d of desks) d.close()
    await proxy?.close()
    await world?.close()
  })

  it('a relay never reached is reported as such (RELAY_NEVER_REACHED), not as a lost one', async () => {
    const member = world.members.get('ci-nightly')!
    const nobody = `nats://127.0.0.1:${await freePort()}`
    await expect(
      RelayLink.open({
        url: nobody,
        connect: nodeConnect,
        creds: member.creds,
        name: 'ci-nightly',
        allowOutdatedLoopback: true,
        reachTimeoutMs: 1_000,
      }),
    ).rejects.toMatchObject({
      code: 'RELAY_NEVER_REACHED',
      message: `RELAY_NEVER_REACHED: the relay at ${nobody} could not be reached within 1 s; check the URL and that the relay runs`,
    })
  })

  it('an expired credential is refused at once (RELAY_DENIED), not retried until the reach deadline', async () => {
    const creds = await world.mint('agent', 'ci-nightly', 60, Date.now() - 120_000)
    const started = Date.now()
    await expect(
      RelayLink.open({
        url: world.url,
        connect: nodeConnect,
        creds,
        name: 'ci-nightly',
        allowOutdatedLoopback: true,
        reachTimeoutMs: 20_000,
      }),
    ).rejects.toMatchObject({ code: 'RELAY_DENIED' })
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('nothing is lost across SIGKILL and restart: a desk that starts afterwards sees the question, the answer reaches the agent', async () => {
    const before = await desk('laptop')
    const agentLink = await world.link('ci-nightly')
    const agent = new RemoteAsker({
      link: agentLink,
      agent: world.members.get('ci-nightly')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    let askId: string | undefined
    const answer = agent.ask(QUESTIONS, { onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)) })
    await until(() => askId !== undefined, 'the question to be written')
    await until(() => before.pending().some((ask) => ask.askId === askId), 'the question on the desk before the kill')
    await world.killAndRestart()
    const laptop = await desk('laptop')
    const deliveredBefore = nextEvent<RemoteAskSettled>(
      (l) => before.onSettled(l),
      (s) => s.key === `q.ci-nightly.${askId!}`,
    )
    await until(() => laptop.pending().some((ask) => ask.askId === askId), 'the question on the desk after the restart')
    expect(await laptop.answer(`q.ci-nightly.${askId!}`, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
    // The desk that was watching before the kill re-watched after the restart and got the receipt.
    expect(await deliveredBefore).toEqual({
      key: `q.ci-nightly.${askId!}`,
      outcome: 'delivered',
      winner: world.members.get('laptop')!.keys.member,
    })
  }, 60_000)

  it('an answer written while the agent is cut off reaches it when its link returns', async () => {
    const laptop = desks[1] ?? (await desk('laptop'))
    const agentLink = await world.link('devbox', proxy.url)
    const agent = new RemoteAsker({
      link: agentLink,
      agent: world.members.get('devbox')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const seen = added(laptop, 'devbox')
    const answer = agent.ask(QUESTIONS)
    const ask = await seen
    proxy.cut()
    await until(() => !agentLink.up, "the agent's link to drop")
    expect(await laptop.answer(ask.key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
    proxy.restore()
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
  }, 60_000)

  it('an agent whose time runs out while the relay is unreachable reports RELAY_LOST, and the desk keeps the ask until its expiry', async () => {
    const laptop = desks[1] ?? (await desk('laptop'))
    const agentLink = await world.link('sandbox', proxy.url)
    const agent = new RemoteAsker({
      link: agentLink,
      agent: world.members.get('sandbox')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const seen = added(laptop, 'sandbox')
    const answer = agent.ask(QUESTIONS, { timeoutMs: 3_000 })
    const ask = await seen
    proxy.cut()
    await until(() => !agentLink.up, "the agent's link to drop")
    const gone = nextEvent<RemoteAskSettled>(
      (l) => laptop.onSettled(l),
      (s) => s.key === ask.key,
    )
    await expect(answer).rejects.toMatchObject({ code: 'RELAY_LOST' })
    // The agent is still cut off, so no receipt can have been written: the desk drops the ask by the
    // expiry the agent put in the question.
    expect(await gone).toEqual({ key: ask.key, outcome: 'expired' })
    expect(agentLink.up).toBe(false)
    proxy.restore()
  }, 60_000)
})
