// 6. Cost growth, core side: for inboxes of 100, 1,000 and 10,000 pending asks (50 per agent, as the
// browser section fills them), the core's RSS and heap per pending ask, and what a window opening on
// that inbox receives: the snapshot's bytes and asks, and every frame until it has the whole inbox.
// Each size runs in a fresh core. The window side (first screen, next ask) is the browser section's.
import { performance } from 'node:perf_hooks'
import type { WebSocket } from 'ws'
import { closeSocket, openAgent, openSocket, parse, sleep, withTimeout, type ServerChild } from './util'
import { UI_SUBPROTOCOL } from '../shared/ui'

export interface GrowthPoint {
  asks: number
  rssPerPendingBytes: number
  heapPerPendingBytes: number
  /** The `snapshot` frame: its bytes and how many asks it carried. */
  snapshot: { bytes: number; asks: number }
  /** Every frame until the window had the whole inbox (snapshot included), and their bytes. */
  frames: number
  bytes: number
  largestFrameBytes: number
  /** Opening the socket → the window has every pending ask (ms). */
  wholeInboxMs: number
}

/** How a figure grows from the smallest to the largest inbox. */
export type Growth = 'flat' | 'sublinear' | 'linear' | 'worse'

/**
 * Classifies growth by the exponent k of value ∝ size^k between the last two points (how the figure
 * behaves as the inbox gets large): flat (k ≤ 0.15), sublinear (≤ 0.85), linear (≤ 1.15), worse.
 */
export function classifyGrowth(points: ReadonlyArray<{ size: number; value: number }>): Growth | undefined {
  const first = points[points.length - 2]
  const last = points[points.length - 1]
  if (!first || !last || first.size === last.size || !(first.value > 0) || !(last.value > 0)) return undefined
  const k = Math.log(last.value / first.value) / Math.log(last.size / first.size)
  if (k <= 0.15) return 'flat'
  if (k <= 0.85) return 'sublinear'
  if (k <= 1.15) return 'linear'
  return 'worse'
}

const PER_AGENT = 50

/** The inbox's asks: the same shape as the browser section's (a title, a header, two options). */
function inboxAsk(n: number, k: number): string {
  return JSON.stringify({
    type: 'ask',
    id: `i${k}`,
    title: `Inbox task ${n}`,
    questions: [
      {
        id: 'q1',
        header: `Step ${n}`,
        question: `Inbox question ${n}: which option?`,
        options: [{ label: 'One' }, { label: 'Two' }],
      },
    ],
  })
}

async function measure(asks: number, start: () => Promise<ServerChild>): Promise<GrowthPoint> {
  const server = await start()
  const agents: WebSocket[] = []
  try {
    const { agentUrl, uiUrl, token, windowToken } = server.info
    for (let a = 0; a * PER_AGENT < asks; a++) agents.push(await openAgent(agentUrl, token, `growth-agent-${a}`))
    const base = await server.memory() // the connections are in the base: this is the asks' own cost
    agents.forEach((ws, a) => {
      for (let k = 0; k < PER_AGENT && a * PER_AGENT + k < asks; k++) ws.send(inboxAsk(a * PER_AGENT + k, k))
    })
    const deadline = performance.now() + 120_000
    while ((await server.pending()) < asks) {
      if (performance.now() > deadline) throw new Error(`only ${await server.pending()} of ${asks} asks became pending`)
      await sleep(10)
    }
    const filled = await server.memory()
    const t0 = performance.now()
    const window = await openSocket(uiUrl, UI_SUBPROTOCOL, windowToken)
    let frames = 0
    let bytes = 0
    let largest = 0
    let seen = 0
    let snapshot = { bytes: 0, asks: 0 }
    await withTimeout(
      new Promise<void>((resolve) => {
        window.on('message', (data) => {
          const size = (data as Buffer).length
          frames++
          bytes += size
          largest = Math.max(largest, size)
          const f = parse(data)
          if (f.type === 'snapshot') {
            snapshot = { bytes: size, asks: f.pending.length }
            seen += f.pending.length
          } else if (f.type === 'ask/added') seen++
          if (seen >= asks) resolve()
        })
      }),
      120_000,
      `a window to receive the ${asks}-ask inbox`,
    )
    const wholeInboxMs = performance.now() - t0
    await closeSocket(window)
    return {
      asks,
      rssPerPendingBytes: Math.round((filled.rss - base.rss) / asks),
      heapPerPendingBytes: Math.round((filled.heapUsed - base.heapUsed) / asks),
      snapshot,
      frames,
      bytes,
      largestFrameBytes: largest,
      wholeInboxMs,
    }
  } finally {
    for (const ws of agents) await closeSocket(ws)
    await server.close()
  }
}

/** One fresh core per size, smallest first. */
export async function runGrowth(sizes: readonly number[], start: () => Promise<ServerChild>): Promise<GrowthPoint[]> {
  const points: GrowthPoint[] = []
  for (const asks of sizes) points.push(await measure(asks, start))
  return points
}
