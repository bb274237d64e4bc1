// 1. Round trip: one agent, one scripted window, asks one after another. The floor relay and the
// core each run in their own child process (as the companion does in real use: agents are other
// processes); the agent and the window share the bench process. Floor and core are measured in
// alternating blocks so that background load on the machine hits both alike.
import { performance } from 'node:perf_hooks'
import type { WebSocket } from 'ws'
import { summarize, type Summary } from './stats'
import { closeSocket, openAgent, openWindow, parse, withTimeout, type ServerChild } from './util'

export interface RoundTripResult {
  floor: Summary
  core: Summary
  ratioP50: number
  ratioP99: number
  /**
   * CPU time of the server process per measured ask (user + system), µs; `floorV1` is the floor relay
   * that also sends the answering window `ask/settled` and `ask/accepted` (when measured).
   */
  serverCpuPerAskUs: { floor: number; core: number; floorV1?: number }
  warmup: number
  samplesEach: number
  blockSize: number
}

interface Pair {
  agent: WebSocket
  window: WebSocket
  /** Sends one ask, resolves with the round trip in microseconds. */
  ask(id: string): Promise<number>
}

async function connectPair(server: ServerChild): Promise<Pair> {
  const { agentUrl, uiUrl, token, windowToken } = server.info
  const { ws: window } = await openWindow(uiUrl, windowToken)
  const agent = await openAgent(agentUrl, token, 'bench-roundtrip')
  let waiting: { id: string; t0: number; resolve: (us: number) => void; reject: (e: Error) => void } | undefined
  // The scripted window answers every question at once with the first offered label.
  window.on('message', (data) => {
    const f = parse(data)
    if (f.type === 'ask/added') {
      const q = f.ask.questions[0]
      window.send(
        JSON.stringify({
          type: 'ask/answer',
          askId: f.ask.askId,
          answers: [{ id: q.id, selected: [q.options[0].label] }],
        }),
      )
    } else if (f.type === 'ask/rejected') {
      const w = waiting
      waiting = undefined
      w?.reject(new Error(`window answer rejected: ${JSON.stringify(f)}`))
    }
  })
  agent.on('message', (data) => {
    const t1 = performance.now()
    const f = parse(data)
    const w = waiting
    if (!w) return
    waiting = undefined
    if (f.type === 'answer' && f.id === w.id && f.answers?.[0]?.selected?.[0] === 'A') w.resolve((t1 - w.t0) * 1000)
    else w.reject(new Error(`unexpected frame for ask ${w.id}: ${JSON.stringify(f)}`))
  })
  const questions = [{ id: 'q1', question: 'Proceed with the migration?', options: [{ label: 'A' }, { label: 'B' }] }]
  return {
    agent,
    window,
    ask: (id) =>
      withTimeout(
        new Promise<number>((resolve, reject) => {
          const frame = JSON.stringify({ type: 'ask', id, questions })
          waiting = { id, t0: performance.now(), resolve, reject }
          agent.send(frame)
        }),
        5_000,
        `answer to ask ${id}`,
      ),
  }
}

export async function runRoundTrip(
  floorServer: ServerChild,
  coreServer: ServerChild,
  opts: { warmup: number; samples: number; blockSize: number },
  more: { floorV1?: ServerChild } = {},
): Promise<RoundTripResult> {
  const floor = await connectPair(floorServer)
  const core = await connectPair(coreServer)
  // The other floors, measured in the same alternation; only their CPU is reported.
  const others = Object.entries(more).filter((e): e is [string, ServerChild] => e[1] !== undefined)
  const otherPairs = await Promise.all(others.map(([, server]) => connectPair(server)))
  let seq = 0
  for (let i = 0; i < opts.warmup; i++) {
    await floor.ask(`w${seq}`)
    await core.ask(`w${seq}`)
    for (const p of otherPairs) await p.ask(`w${seq}`)
    seq++
  }
  const floorSamples: number[] = []
  const coreSamples: number[] = []
  const servers = [floorServer, coreServer, ...others.map(([, server]) => server)]
  for (const s of servers) await s.profileStart()
  const cpu = async (): Promise<number[]> => {
    const out: number[] = []
    for (const s of servers) out.push(await s.cpuMicros())
    return out
  }
  const cpu0 = await cpu()
  while (coreSamples.length < opts.samples) {
    const n = Math.min(opts.blockSize, opts.samples - coreSamples.length)
    for (let i = 0; i < n; i++) floorSamples.push(await floor.ask(`r${seq++}`))
    for (let i = 0; i < n; i++) coreSamples.push(await core.ask(`r${seq++}`))
    for (const p of otherPairs) for (let i = 0; i < n; i++) await p.ask(`r${seq++}`)
  }
  const cpu1 = await cpu()
  for (const s of servers) {
    const file = await s.profileStop()
    if (file) process.stderr.write(`bench: steady-state profile ${file}\n`)
  }
  for (const p of [floor, core, ...otherPairs]) {
    await closeSocket(p.agent)
    await closeSocket(p.window)
  }
  const perAsk = (i: number): number => ((cpu1[i] ?? 0) - (cpu0[i] ?? 0)) / opts.samples
  const f = summarize(floorSamples)
  const c = summarize(coreSamples)
  return {
    floor: f,
    core: c,
    ratioP50: c.p50 / f.p50,
    ratioP99: c.p99 / f.p99,
    serverCpuPerAskUs: {
      floor: perAsk(0),
      core: perAsk(1),
      ...Object.fromEntries(others.map(([name], i) => [name, perAsk(i + 2)])),
    },
    warmup: opts.warmup,
    samplesEach: opts.samples,
    blockSize: opts.blockSize,
  }
}
