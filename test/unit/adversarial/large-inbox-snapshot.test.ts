// A window that opens on an inbox larger than the slow-window limit (MAX_BUFFERED_BYTES, 64 MiB) is not
// cut off by its own snapshot: the snapshot carries at most 256 KiB (or one larger ask), the rest follow as `question/added`
// frames, each chunk once the window has read the last. Here the window does not read at all for a
// while (paused), asks come and go meanwhile, and when it reads it gets every pending ask exactly once,
// each agent's asks in the order that agent sent them, over a real socket. Two agents on two sockets
// are not ordered against each other (which of `a0-k3` and `a1-k3` lands first is the scheduler's
// choice), so nothing here asserts an interleaving.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { V1ServerFrame as UiServerFrame } from '../../../core/ui-v1'
import { SNAPSHOT_BYTES } from '../../../core/snapshot-pager'
import { MAX_BUFFERED_BYTES } from '../../../core/ws-transport'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { helloAgent, poll } from '../core/raw-agent'

let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ settings: { history: false } })
})
afterAll(() => t.cleanup())

const windows = async (): Promise<number> => {
  const response = await fetch(`http://127.0.0.1:${t.companion.port}/v1/status`, {
    headers: { Authorization: `Bearer ${t.companion.token}` },
  })
  return ((await response.json()) as { windows: number }).windows
}

it('a window opening on a 76 MB inbox gets all of it, each agent in order, in bounded frames, and is not cut off', async () => {
  // ~0.95 MB per ask (50 questions × 19,000 characters); 40 asks on each of 2 agents.
  const questions = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, question: String(i % 10).repeat(19_000) }))
  const names = ['big-1', 'big-2']
  const agents = [await helloAgent(t.companion, names[0]!), await helloAgent(t.companion, names[1]!)]
  /** Each agent's titles in the order it sent them. */
  const sent: string[][] = [[], []]
  const count = (): number => sent.flat().length
  for (let k = 0; k < 40; k++) {
    for (const [n, agent] of agents.entries()) {
      agent.send({ type: 'ask', id: `k${k}`, title: `a${n}-k${k}`, questions })
      sent[n]!.push(`a${n}-k${k}`)
    }
    await poll(() => t.companion.pending().length).toBe(count())
  }
  expect(count() * 950_000).toBeGreaterThan(MAX_BUFFERED_BYTES)

  const frames: UiServerFrame[] = []
  const sizes: number[] = []
  let closed = false
  const window = new WebSocket(`ws://127.0.0.1:${t.companion.port}/v1/ui`, ['ask-user.ui.v1'], {
    headers: { Authorization: `Bearer ${t.companion.windowCredential()}` },
    maxPayload: 256 * 1024 * 1024,
  })
  window.on('message', (data) => {
    const text = String(data)
    sizes.push(Buffer.byteLength(text))
    frames.push(JSON.parse(text) as UiServerFrame)
  })
  window.on('close', () => (closed = true))
  await new Promise<void>((resolve, reject) => {
    window.once('open', () => resolve())
    window.once('error', reject)
  })
  window.pause() // reads nothing for now
  await poll(windows).toBe(1)

  // While it does not read: one more ask, and one not yet sent withdrawn by its agent.
  agents[0]?.send({ type: 'ask', id: 'late', title: 'late', questions: [{ id: 'q', question: 'late one' }] })
  agents[1]?.send({ type: 'cancel', id: 'k39' })
  await poll(() => t.companion.pending().map((ask) => ask.title)).toContain('late')
  await poll(() => t.companion.pending().length).toBe(count())
  expect(await windows()).toBe(1)
  sent[0]!.push('late')
  sent[1]!.pop() // a1-k39, withdrawn

  window.resume()
  const received = () =>
    frames.flatMap((f) => (f.type === 'snapshot' ? f.pending : f.type === 'question/added' ? [f.ask] : []))
  const seen = (): string[] => received().map((ask) => ask.title ?? '')
  await expect.poll(() => seen().at(-1), { timeout: 30_000 }).toBe('late')
  expect(closed).toBe(false)
  const titles = seen()
  expect(new Set(titles).size).toBe(titles.length) // every ask exactly once …
  expect([...titles].sort()).toEqual(sent.flat().sort()) // … and every pending one
  for (const [n, own] of sent.entries()) {
    const fromAgent = received().filter((ask) => ask.agent.name === names[n])
    expect(fromAgent.map((ask) => ask.title)).toEqual(own) // each agent's own order
  }
  expect(frames[0]?.type).toBe('snapshot')
  expect(frames.some((f) => f.type === 'question/resolved')).toBe(false) // the withdrawn ask was never sent
  // Each of these asks is larger than the bound: every frame carries exactly one (no frame grows with the inbox).
  expect(950_000).toBeGreaterThan(SNAPSHOT_BYTES)
  const firstPage = (frames[0] as { pending: { title?: string }[] }).pending
  expect(firstPage).toHaveLength(1)
  expect(['a0-k0', 'a1-k0']).toContain(firstPage[0]?.title) // the first to arrive, from either agent
  expect(Math.max(...sizes)).toBeLessThan(1_000_000)

  for (const agent of agents) agent.socket.close()
  window.close()
  await poll(() => t.companion.pending().length).toBe(0)
}, 90_000)
