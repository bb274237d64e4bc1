// The load run of load.test.ts and scripts/soak.mjs's in-process sibling: many agents asking at once
// over real sockets, some dropped abruptly at random, one scripted window answering, dismissing or
// ignoring at random (ignored asks are withdrawn by their agent at the end). Seeded, bounded.
import { WebSocket } from 'ws'
import type { Companion } from '../../../core'
import { CompanionFrameSchema, type CompanionFrame } from '../../../shared/wire'
import { V1ServerFrameSchema as UiServerFrameSchema } from '../../../core/ui-v1'

/** What one load run counted. Every ask made ends as exactly one of answered/dismissed/withdrawn/gone. */
export interface LoadFigures {
  agents: number
  made: number
  answered: number
  dismissed: number
  withdrawn: number
  gone: number
  /** Agents dropped abruptly (socket destroyed, no closing handshake). */
  dropped: number
  /** Answers an agent got for an ask that was not its own, or with another ask's label. */
  crossed: number
  /** Asks made that never settled. */
  lost: number
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const label = (agent: number, ask: number): string => `a${agent}-k${ask}`

function open(url: string, protocol: string, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [protocol], { headers: { Authorization: `Bearer ${token}` } })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

/**
 * Runs `agents` agents × `asks` asks against `companion`; `dropRate` of the agents are destroyed after
 * a random number of their answers; the window answers with probability 0.8, dismisses with 0.1 and
 * ignores the rest. Resolves once every ask made has settled and every socket is closed.
 */
export async function loadRun(
  companion: Companion,
  options: { agents: number; asks: number; dropRate: number; seed: number },
): Promise<LoadFigures> {
  const random = prng(options.seed)
  const outcomes = new Map<string, string>()
  let made = 0
  const offAdded = companion.on('added', () => void made++)
  const offResolved = companion.on('resolved', (askId, outcome) => void outcomes.set(askId, outcome))
  const figures: LoadFigures = {
    agents: options.agents,
    made: 0,
    answered: 0,
    dismissed: 0,
    withdrawn: 0,
    gone: 0,
    dropped: 0,
    crossed: 0,
    lost: 0,
  }

  const ignored = new Set<string>()
  const window = await open(companion.uiUrl, 'ask-user.ui.v1', companion.windowCredential())
  window.on('message', (data) => {
    const frame = UiServerFrameSchema.parse(JSON.parse(String(data)))
    if (frame.type !== 'question/added') return
    const roll = random()
    const only = frame.ask.questions[0]?.options?.[0]?.label ?? ''
    if (roll >= 0.9) ignored.add(frame.ask.askId)
    else if (roll < 0.8)
      window.send(JSON.stringify({ type: 'answer', askId: frame.ask.askId, answers: [{ id: 'q1', selected: [only] }] }))
    else if (roll < 0.9) window.send(JSON.stringify({ type: 'dismiss', askId: frame.ask.askId }))
  })

  interface Session {
    socket: WebSocket
    open: Set<string>
    closed: Promise<void>
  }
  const runAgent = async (index: number): Promise<Session> => {
    const socket = await open(companion.agentUrl, 'ask-user.v1', companion.token)
    const drop = random() < options.dropRate ? 1 + Math.floor(random() * options.asks) : -1
    const pending = new Set<string>()
    let settled = 0
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('message', (data) => {
      const frame: CompanionFrame = CompanionFrameSchema.parse(JSON.parse(String(data)))
      if (frame.type === 'welcome') {
        for (let k = 0; k < options.asks; k++) {
          pending.add(`k${k}`)
          socket.send(
            JSON.stringify({
              type: 'ask',
              id: `k${k}`,
              questions: [{ id: 'q1', question: 'Which?', options: [{ label: label(index, k) }] }],
            }),
          )
        }
        return
      }
      if (frame.type !== 'answer' && frame.type !== 'cancelled') return
      if (settled === drop) return // frames ws had already read before the socket was destroyed
      if (!pending.delete(frame.id)) figures.crossed++ // not one of ours, or a second outcome
      if (frame.type === 'answer' && frame.answers[0]?.selected[0] !== label(index, Number(frame.id.slice(1))))
        figures.crossed++
      if (++settled === drop) {
        figures.dropped++
        pending.clear()
        socket.terminate()
      }
    })
    socket.send(JSON.stringify({ type: 'hello', protocol: 1, client: { name: `load-${index}` } }))
    return { socket, open: pending, closed }
  }

  const sessions: Session[] = []
  for (let start = 0; start < options.agents; start += 50) {
    const count = Math.min(50, options.agents - start)
    sessions.push(...(await Promise.all(Array.from({ length: count }, (_, i) => runAgent(start + i)))))
  }
  const expected = options.agents * options.asks
  // Every ask made; everything still pending is one the window ignored (or is settling right now).
  await until(
    () => made === expected && companion.pending().every((ask) => ignored.has(ask.askId)),
    'every ask made and seen',
  )
  for (const session of sessions) {
    for (const id of session.open) session.socket.send(JSON.stringify({ type: 'cancel', id }))
  }
  await until(() => companion.pending().length === 0, 'nothing pending')
  for (const session of sessions) session.socket.close(1000)
  window.close(1000)
  await Promise.all(sessions.map((session) => session.closed))
  await new Promise<void>((resolve) =>
    window.readyState === WebSocket.CLOSED ? resolve() : window.once('close', () => resolve()),
  )
  offAdded()
  offResolved()
  figures.made = made
  for (const outcome of outcomes.values()) {
    if (outcome === 'answered') figures.answered++
    else if (outcome === 'cancelled') figures.dismissed++
    else if (outcome === 'aborted') figures.withdrawn++
    else figures.gone++
  }
  figures.lost = made - outcomes.size
  return figures
}

/** Polls `condition` every event-loop turn (and at most every 5 ms) until true; throws after `ms`. */
async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`load run: timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
