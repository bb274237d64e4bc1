// Load with faults over real loopback sockets: agents × asks at once, agents dropped abruptly at
// random, a scripted window answering, dismissing or ignoring at random. Nothing crossed, nothing
// lost, nothing pending, and the process's sockets and heap back to their baseline.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { heapAfterGc } from './gc'
import { loadRun } from './load-run'

/** Scaled for CI on 2 cores (docs/reliability.md): override with LOAD_AGENTS / LOAD_ASKS. */
const AGENTS = Number(process.env['LOAD_AGENTS'] ?? 500)
const ASKS = Number(process.env['LOAD_ASKS'] ?? 20)

let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion()
})
afterAll(() => t.cleanup())

const tcpHandles = (): number => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length

it(`${AGENTS} agents × ${ASKS} asks with random abrupt disconnects: 0 crossed, 0 lost, 0 pending, handles and heap back to baseline`, async () => {
  const handlesBefore = tcpHandles()
  const heapBefore = heapAfterGc()
  const started = Date.now()
  const figures = await loadRun(t.companion, { agents: AGENTS, asks: ASKS, dropRate: 0.1, seed: 14 })
  console.log(
    `load: ${JSON.stringify(figures)} in ${Date.now() - started} ms; heap after GC ${Math.round(heapBefore / 1e6)} → ${Math.round(heapAfterGc() / 1e6)} MB`,
  )
  expect(figures.made).toBe(AGENTS * ASKS)
  expect(figures.crossed).toBe(0)
  expect(figures.lost).toBe(0)
  expect(figures.answered + figures.dismissed + figures.withdrawn + figures.gone).toBe(figures.made)
  expect(figures.dropped).toBeGreaterThan(0)
  expect(figures.gone).toBeGreaterThan(0)
  expect(t.companion.pending()).toEqual([])
  await expect.poll(tcpHandles, { timeout: 10_000 }).toBe(handlesBefore)
  await expect.poll(() => heapAfterGc() - heapBefore, { timeout: 10_000 }).toBeLessThan(16 * 1024 * 1024)
}, 90_000)
