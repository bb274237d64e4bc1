// A window that stops reading is cut off once 64 MiB are queued for it (MAX_BUFFERED_BYTES), and what
// was queued is freed: the heap and the queued bytes return to their baseline; agents carry on.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_BUFFERED_BYTES } from '../../../core/ws-transport'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { helloAgent, poll } from '../core/raw-agent'
import { heapAfterGc } from './gc'
import { openRaw } from './raw-socket'

let t: TestCompanion
beforeAll(async () => {
  // History off: it keeps settled asks (questions included) by design; this test measures the window.
  t = await startTestCompanion({ settings: { history: false } })
})
afterAll(() => t.cleanup())

const windows = async (): Promise<number> => {
  const response = await fetch(`http://127.0.0.1:${t.companion.port}/v1/status`, {
    headers: { Authorization: `Bearer ${t.companion.token}` },
  })
  return ((await response.json()) as { windows: number }).windows
}

it('cuts off a window that stopped reading, without keeping what was queued for it', async () => {
  const heapBefore = heapAfterGc()
  const external = process.memoryUsage().arrayBuffers
  const slow = await openRaw(t.companion.port, '/v1/ui', {
    Authorization: `Bearer ${t.companion.windowCredential()}`,
    'Sec-WebSocket-Protocol': 'ask-user.ui.v1',
  })
  slow.socket.pause() // never reads again
  await poll(windows).toBe(1)
  // ~0.95 MB per ask (50 questions × 19,000 characters); 40 asks on each of 2 agents: ~76 MB broadcast.
  const questions = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, question: String(i % 10).repeat(19_000) }))
  const agents = [await helloAgent(t.companion, 'big-1'), await helloAgent(t.companion, 'big-2')]
  let sent = 0
  for (let k = 0; k < 40 && (await windows()) > 0; k++) {
    for (const agent of agents) agent.send({ type: 'ask', id: `k${k}`, questions })
    sent += 2
    await poll(() => t.companion.pending().length).toBe(sent)
  }
  await poll(windows).toBe(0)
  expect(sent * 950_000).toBeGreaterThan(MAX_BUFFERED_BYTES)
  // Withdrawn by their agents (an agent that vanished would leave a few asks kept for a late answer).
  for (const agent of agents) for (let k = 0; k < sent / 2; k++) agent.send({ type: 'cancel', id: `k${k}` })
  await poll(() => t.companion.pending().length).toBe(0)
  for (const agent of agents) agent.socket.close()
  slow.socket.destroy()
  await expect.poll(() => heapAfterGc() - heapBefore, { timeout: 10_000 }).toBeLessThan(16 * 1024 * 1024)
  await expect
    .poll(() => process.memoryUsage().arrayBuffers - external, { timeout: 10_000 })
    .toBeLessThan(16 * 1024 * 1024)
}, 60_000)
