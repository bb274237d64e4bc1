// The relay rows (issue 32, "Performance"): a real nats-server in operator mode with real scoped
// credentials (the exchange tests' fixture), a remote agent and two desks in this process.
// - remote ask → visible on a second desk, and a desk's answer → the agent's answers, p50/p99, beside
//   the bare NATS request round trip ($JS.API.INFO, answered by the server) in the same run;
// - sealing one question for 1, 3 and 8 devices;
// - a desk starting against 1,000 pending remote asks from 50 agents: time to the first 50 listed, to
//   all, and the longest the event loop was held meanwhile (monitorEventLoopDelay's max), opened on
//   this thread and again (the same asks) on the worker thread the companion's bridge uses.
// Reported, never asserted. Without nats-server the section says why and measures nothing.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import {
  generateMemberIdentity,
  newReplyKey,
  randomToken,
  sealQuestion,
  type Member,
  type MemberKeys,
  type Roster,
} from '../relay/crypto'
import {
  INBOX_BUCKET,
  RelayDesk,
  RemoteAsker,
  WorkerQuestionOpener,
  inboxKey,
  openOnThisThread,
  type QuestionOpener,
  type RemoteAsk,
} from '../relay/exchange'
import { createEntry } from '../relay/exchange/relay-kv'
import { natsServerSkipReason } from '../test/helpers/nats-server'
import { startRelayWorld, type RelayWorld } from '../test/unit/relay/exchange/relay-world'
import { relaySteps, type RelayStep } from './relay-steps'
import { roundSummary, summarize, type Summary } from './stats'

export interface RelayBenchOptions {
  /** Remote round trips measured (after a few warm-up ones). */
  samples: number
  /** Pending asks the late desk starts against, and how many agents asked them. */
  pendingAsks: number
  agents: number
}

export interface RelayBenchResult {
  /** ms: the bare NATS request round trip over loopback ($JS.API.INFO). */
  natsRequest: Summary
  /** ms: `RemoteAsker.ask` called → the ask delivered by a second desk's `onAdded`. */
  askVisible: Summary
  /** ms: `RelayDesk.answer` called → the agent's `ask` resolved with the answers. */
  answerToAgent: Summary
  /** ms, p50: each relay operation and crypto step of the round trips, timed alone (bench/relay-steps.ts). */
  steps: Record<RelayStep, number>
  /** ms per question sealed, by the number of devices in the roster. */
  sealMs: Record<string, number>
  /** The late desk opening on this thread, then (the same asks) on the bridge's worker thread. */
  inbox: LateDeskResult
  inboxWorker: LateDeskResult
}

export interface LateDeskResult {
  asks: number
  agents: number
  firstFiftyMs: number
  allMs: number
  longestLoopBlockMs: number
  /** The same measure over as long with the process idle: what the machine's load alone adds. */
  idleLoopBlockMs: number
}

export type RelayBenchOutcome = RelayBenchResult | { skipped: string }

const QUESTIONS = [{ id: 'go', question: 'Deploy the release?', options: [{ label: 'Yes' }, { label: 'No' }] }]
const WARMUP = 5

/** Runs the relay rows; `{ skipped }` when nats-server is not installed. */
export async function runRelay(options: RelayBenchOptions): Promise<RelayBenchOutcome> {
  const skip = natsServerSkipReason()
  if (skip) return { skipped: skip }
  const agents = Array.from({ length: options.agents }, (_, i) => `agent-${String(i).padStart(2, '0')}`)
  const world = await startRelayWorld({ devices: ['desk-a', 'desk-b'], agents })
  try {
    const sealMs = await sealing(world.members.get(agents[0]!)!.keys, world.roster)
    const steps = await relaySteps(world, agents[1]!, 'desk-a', Math.min(options.samples, 100))
    const trips = await roundTrips(world, agents[0]!, options.samples)
    await writePending(world, agents, options.pendingAsks)
    const inbox = await lateDesk(world, agents.length, options.pendingAsks, openOnThisThread)
    const worker = new WorkerQuestionOpener()
    const inboxWorker = await lateDesk(world, agents.length, options.pendingAsks, worker.open).finally(() =>
      worker.close(),
    )
    return { ...trips, steps, sealMs, inbox, inboxWorker }
  } finally {
    await world.close()
  }
}

async function sealing(agent: MemberKeys, roster: Roster): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  const body = new TextEncoder().encode(JSON.stringify({ v: 1, questions: QUESTIONS }))
  for (const devices of [1, 3, 8]) {
    const members: Member[] = [agent.member]
    for (let i = 0; i < devices; i++) members.push((await generateMemberIdentity(`seal-${i}`, 'device')).member)
    const sized: Roster = { ...roster, members }
    const replyKey = (await newReplyKey()).publicKey
    const seal = async (): Promise<void> => {
      const askId = randomToken()
      await sealQuestion({
        agent,
        roster: sized,
        askId,
        kvKey: inboxKey('q', agent.member.name, askId),
        replyKey,
        body,
      })
    }
    for (let i = 0; i < 20; i++) await seal()
    const runs = 200
    const t0 = performance.now()
    for (let i = 0; i < runs; i++) await seal()
    out[String(devices)] = (performance.now() - t0) / runs
  }
  return out
}

async function roundTrips(
  world: RelayWorld,
  agentName: string,
  samples: number,
): Promise<Pick<RelayBenchResult, 'natsRequest' | 'askVisible' | 'answerToAgent'>> {
  const deskLink = await world.link('desk-b')
  const desk = await RelayDesk.start({
    link: deskLink,
    device: world.members.get('desk-b')!.keys,
    rootPublicKey: world.rootPublicKey,
  })
  const agent = new RemoteAsker({
    link: await world.link(agentName),
    agent: world.members.get(agentName)!.keys,
    rootPublicKey: world.rootPublicKey,
  })
  const natsRequest: number[] = []
  const askVisible: number[] = []
  const answerToAgent: number[] = []
  try {
    for (let i = 0; i < WARMUP + samples; i++) {
      const r0 = performance.now()
      await deskLink.nc.request('$JS.API.INFO', undefined, { timeout: 5_000 })
      const r1 = performance.now()
      const visible = new Promise<RemoteAsk>((resolve) => {
        const stop = desk.onAdded((ask) => {
          stop()
          resolve(ask)
        })
      })
      const t0 = performance.now()
      const answered = agent.ask(QUESTIONS)
      const ask = await visible
      const t1 = performance.now()
      const result = await desk.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])
      if (!result.won) throw new Error('the bench desk lost an answer it alone could give')
      await answered
      const t2 = performance.now()
      if (i < WARMUP) continue
      natsRequest.push(r1 - r0)
      askVisible.push(t1 - t0)
      answerToAgent.push(t2 - t1)
    }
  } finally {
    desk.close()
  }
  return {
    natsRequest: roundSummary(summarize(natsRequest)),
    askVisible: roundSummary(summarize(askVisible)),
    answerToAgent: roundSummary(summarize(answerToAgent)),
  }
}

/** Writes `total` questions from `agents` straight to the relay (sealed as an agent seals them). */
async function writePending(world: RelayWorld, agents: readonly string[], total: number): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify({ v: 1, questions: QUESTIONS }))
  const replyKey = (await newReplyKey()).publicKey
  await Promise.all(
    agents.map(async (name, index) => {
      const link = await world.link(name)
      const keys = world.members.get(name)!.keys
      const count = Math.floor(total / agents.length) + (index < total % agents.length ? 1 : 0)
      for (let i = 0; i < count; i++) {
        const askId = randomToken()
        const key = inboxKey('q', name, askId)
        const sealed = await sealQuestion({ agent: keys, roster: world.roster, askId, kvKey: key, replyKey, body })
        if (!(await createEntry(link.nc, INBOX_BUCKET, key, sealed.bytes))) throw new Error(`${key} was taken`)
      }
      await link.close()
    }),
  )
}

async function lateDesk(
  world: RelayWorld,
  agents: number,
  total: number,
  opener: QuestionOpener,
): Promise<LateDeskResult> {
  const link = await world.link('desk-a')
  const loop = monitorEventLoopDelay({ resolution: 1 })
  let listed = 0
  let firstFiftyMs = Number.NaN
  let allMs = Number.NaN
  const t0 = performance.now()
  loop.enable()
  let desk: RelayDesk | undefined
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${listed} of ${total} asks listed within 120 s`)), 120_000)
    const onAdded = (): void => {
      listed++
      if (listed === Math.min(50, total)) firstFiftyMs = performance.now() - t0
      if (listed === total) {
        allMs = performance.now() - t0
        clearTimeout(timer)
        resolve()
      }
    }
    // The listener must be there before the first question is opened: `start` resolves once the
    // watches are in place, and the watch delivers asynchronously after that.
    void RelayDesk.start({
      link,
      device: world.members.get('desk-a')!.keys,
      rootPublicKey: world.rootPublicKey,
      opener,
    }).then((started) => {
      desk = started
      started.onAdded(onAdded)
      for (let i = started.pending().length; i > 0; i--) onAdded()
    }, reject)
  }).finally(() => {
    loop.disable()
    desk?.close()
  })
  const idle = monitorEventLoopDelay({ resolution: 1 })
  idle.enable()
  await new Promise((resolve) => setTimeout(resolve, allMs))
  idle.disable()
  return {
    asks: total,
    agents,
    firstFiftyMs,
    allMs,
    longestLoopBlockMs: loop.max / 1e6,
    idleLoopBlockMs: idle.max / 1e6,
  }
}
