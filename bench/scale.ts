// 2. Scale: many agent connections, several pending asks each, then every ask answered by one
// scripted window. Memory is read in the server's own process (child, --expose-gc, after forced GC).
// Each ask's identity is encoded in its only meaningful label (`a<agent>-k<ask>`): the window
// answers with the label of the ask it was shown, so an answer routed to the wrong agent or to the
// wrong ask id is detected as crossed; an ask that never gets its answer is lost.
import { performance } from 'node:perf_hooks'
import type { WebSocket } from 'ws'
import { round } from './stats'
import { closeSocket, openAgent, openWindow, parse, sleep, type Memory, type ServerChild } from './util'

export interface ScaleResult {
  mode: 'core' | 'floor'
  agents: number
  asksPerAgent: number
  pendingReached: number
  corePendingCount: number
  connectMs: number
  intakeMs: number
  intakePerSec: number
  settleMs: number
  settledPerSec: number
  /** The server's CPU time (user + system) over the settle phase, per settled ask, µs. */
  settleCpuPerAskUs: number
  answered: number
  crossed: number
  lost: number
  duplicates: number
  errors: number
  errorSamples: string[]
  memory: { base: Memory; connected: Memory; pending: Memory; settled: Memory }
  perConnectionBytes: { rss: number; heapUsed: number }
  perPendingBytes: { rss: number; heapUsed: number; external: number }
}

const delta = (a: Memory, b: Memory, key: keyof Memory, n: number): number => round((b[key] - a[key]) / n, 1)

function shuffle<T>(items: T[]): T[] {
  // Deterministic shuffle (LCG) so runs are comparable.
  let s = 0x2545f491
  for (let i = items.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    const j = s % (i + 1)
    ;[items[i], items[j]] = [items[j] as T, items[i] as T]
  }
  return items
}

export async function runScale(
  server: ServerChild,
  opts: { agents: number; asksPerAgent: number },
): Promise<ScaleResult> {
  const { agentUrl, uiUrl, token, windowToken } = server.info
  const total = opts.agents * opts.asksPerAgent
  const base = await server.memory()

  // The window records every ask it is shown (askId → the label that identifies it).
  const { ws: window } = await openWindow(uiUrl, windowToken)
  const shown: { askId: string; qid: string; label: string }[] = []
  let onShown: (() => void) | undefined
  let rejected = 0
  const errorSamples: string[] = []
  window.on('message', (data) => {
    const f = parse(data)
    if (f.type === 'ask/added') {
      const q = f.ask.questions[0]
      shown.push({ askId: f.ask.askId, qid: q.id, label: q.options[0].label })
      if (shown.length >= total) onShown?.()
    } else if (f.type === 'ask/rejected') {
      rejected++
      if (errorSamples.length < 5) errorSamples.push(JSON.stringify(f))
    }
  })

  // Connect the agents, 50 handshakes at a time.
  const t0 = performance.now()
  const agents: WebSocket[] = []
  for (let i = 0; i < opts.agents; i += 50) {
    const batch = []
    for (let j = i; j < Math.min(opts.agents, i + 50); j++) batch.push(openAgent(agentUrl, token, `agent-${j}`))
    agents.push(...(await Promise.all(batch)))
  }
  const connectMs = performance.now() - t0
  const connected = await server.memory()

  // Every agent checks what it receives.
  let answered = 0
  let crossed = 0
  let duplicates = 0
  let agentErrors = 0
  let onAnswered: (() => void) | undefined
  agents.forEach((ws, i) => {
    const got = new Set<string>()
    ws.on('message', (data) => {
      const f = parse(data)
      if (f.type !== 'answer') {
        agentErrors++
        if (errorSamples.length < 5) errorSamples.push(JSON.stringify(f))
        return
      }
      const k = /^k(\d+)$/.exec(f.id)?.[1]
      const label = f.answers?.[0]?.selected?.[0]
      if (k === undefined || Number(k) >= opts.asksPerAgent || label !== `a${i}-k${k}`) crossed++
      else if (got.has(f.id)) duplicates++
      else {
        got.add(f.id)
        answered++
        if (answered >= total) onAnswered?.()
      }
    })
  })

  // Every agent sends its asks, all at once.
  const allShown = new Promise<void>((resolve) => (onShown = resolve))
  const t1 = performance.now()
  agents.forEach((ws, i) => {
    for (let k = 0; k < opts.asksPerAgent; k++) {
      const label = `a${i}-k${k}`
      ws.send(
        JSON.stringify({
          type: 'ask',
          id: `k${k}`,
          questions: [
            { id: 'q1', question: `Scale ask ${label}: apply the change?`, options: [{ label }, { label: 'no' }] },
          ],
        }),
      )
    }
  })
  await Promise.race([allShown, sleep(60_000)])
  const intakeMs = performance.now() - t1
  const pendingReached = shown.length
  await sleep(200) // let the registry settle before reading it
  const corePendingCount = await server.pending()
  const pending = await server.memory()

  // The window answers everything it was shown, in a shuffled order, as fast as it can.
  const allAnswered = new Promise<void>((resolve) => (onAnswered = resolve))
  // With --cpu-prof=DIR the server is profiled over this phase only (ServerChild's steady profiler).
  await server.profileStart()
  const cpu0 = await server.cpuMicros()
  const t2 = performance.now()
  for (const s of shuffle([...shown])) {
    window.send(JSON.stringify({ type: 'ask/answer', askId: s.askId, answers: [{ id: s.qid, selected: [s.label] }] }))
  }
  // Bounded wait: done when all are answered, or no progress for 10 s, or 60 s in all.
  let last = -1
  const deadline = performance.now() + 60_000
  while (answered < total && performance.now() < deadline) {
    if (answered === last) break
    last = answered
    await Promise.race([allAnswered, sleep(10_000)])
  }
  const settleMs = performance.now() - t2
  const settleCpuUs = (await server.cpuMicros()) - cpu0
  const profile = await server.profileStop()
  if (profile) process.stderr.write(`bench: settle-phase profile ${profile}\n`)
  await sleep(100)
  const settled = await server.memory()

  for (let i = 0; i < agents.length; i += 100) await Promise.all(agents.slice(i, i + 100).map((ws) => closeSocket(ws)))
  await closeSocket(window)

  return {
    mode: server.info.mode,
    agents: opts.agents,
    asksPerAgent: opts.asksPerAgent,
    pendingReached,
    corePendingCount,
    connectMs: round(connectMs, 1),
    intakeMs: round(intakeMs, 1),
    intakePerSec: round((pendingReached / intakeMs) * 1000, 0),
    settleMs: round(settleMs, 1),
    settledPerSec: round((answered / settleMs) * 1000, 0),
    settleCpuPerAskUs: round(settleCpuUs / Math.max(1, answered), 2),
    answered,
    crossed,
    lost: total - answered,
    duplicates,
    errors: agentErrors + rejected,
    errorSamples,
    memory: { base, connected, pending, settled },
    perConnectionBytes: {
      rss: delta(base, connected, 'rss', opts.agents),
      heapUsed: delta(base, connected, 'heapUsed', opts.agents),
    },
    perPendingBytes: {
      rss: delta(connected, pending, 'rss', total),
      heapUsed: delta(connected, pending, 'heapUsed', total),
      external: delta(connected, pending, 'external', total),
    },
  }
}
