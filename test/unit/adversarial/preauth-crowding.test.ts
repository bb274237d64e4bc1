// Class 9, "strangers cannot crowd out agents": another real Unix user keeps thousands of idle TCP
// sockets open to the companion's port, re-opening each one the companion drops, while agents with
// the token connect one after another through the real agent library. The pre-auth budget drops the
// oldest idle stranger for each newcomer, so no agent ever meets a full house; and on Linux the
// peer-uid gate closes the stranger's sockets as soon as they are accepted.
import { createInterface } from 'node:readline'
import type { ChildProcess } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Connection } from '../../../agent/connection'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { IDLE_CHURN_SOURCE } from './idle-churn'

const skip = attackerSkipReason()
let attacker: Attacker | undefined
let script = ''
beforeAll(() => {
  if (skip) return
  attacker = createAttacker()
  script = attacker.writeFile('idle-churn.cjs', IDLE_CHURN_SOURCE)
})
afterAll(() => attacker?.remove())

interface ChurnStats {
  opened: number
  droppedByPeer: number
  failed: number
}

/** The attacker's churn as a child process: `ready` once every socket was opened once, `stats` when it stops. */
function startChurn(
  port: number,
  count: number,
  stopAfterMs: number,
  churn: boolean,
): { child: ChildProcess; ready: Promise<void>; stats: Promise<ChurnStats> } {
  const child = attacker!.spawn('node', [script, String(port), String(count), String(stopAfterMs), churn ? '1' : '0'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let onReady: () => void = () => undefined
  let onStats: (stats: ChurnStats) => void = () => undefined
  const ready = new Promise<void>((resolve) => (onReady = resolve))
  const stats = new Promise<ChurnStats>((resolve, reject) => {
    onStats = resolve
    child.once('exit', (code) => reject(new Error(`the attacker's script exited (${code}) without its stats`)))
  })
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { ready?: true } & Partial<ChurnStats>
    if (message.ready) onReady()
    else onStats(message as ChurnStats)
  })
  stats.catch(() => undefined) // a test that fails first kills the script; its rejection is then nobody's
  return { child, ready, stats }
}

const client = { name: 'crowded-agent', pid: process.pid, cwd: '/tmp/project' }

/** Opens a greeted agent connection with the real agent library, closes it, and returns how long it took (ms). */
async function timedAgentConnect(t: TestCompanion): Promise<number> {
  const started = performance.now()
  const connection = await Connection.open(
    { url: t.companion.agentUrl, token: t.companion.token, source: 'env' },
    client,
    15_000,
  )
  const elapsed = performance.now() - started
  connection.close()
  return elapsed
}

describe.skipIf(skip !== undefined)('another user crowding the port with idle sockets', () => {
  it.each([
    ['the pre-auth budget alone (peer-uid gate off)', { dropOtherUsers: false }],
    ['the defaults (budget and peer-uid gate)', {}],
  ])(
    '5,000 churning idle sockets, %s: 100 agents in a row all get in',
    { timeout: 180_000 },
    async (label, preAuth) => {
      const t = await startTestCompanion({ preAuth })
      const churn = startChurn(t.companion.port, 5_000, 120_000, true)
      try {
        await churn.ready
        const timings: number[] = []
        for (let i = 0; i < 100; i++) timings.push(await timedAgentConnect(t))
        churn.child.stdin!.end()
        const stats = await churn.stats
        const slowest = Math.max(...timings)
        const over = (ms: number): number => timings.filter((x) => x > ms).length
        console.info(
          `pre-auth churn, ${label}: 100 agents, slowest ${slowest.toFixed(0)} ms, median ${median(timings).toFixed(0)} ms, ` +
            `${over(500)} over 0.5 s, ${over(2_000)} over 2 s; the attacker opened ${stats.opened} sockets, the companion dropped ${stats.droppedByPeer}`,
        )
        expect(timings).toHaveLength(100)
        // The attack was real: the attacker opened far more sockets than any cap and the companion dropped them.
        expect(stats.opened).toBeGreaterThan(5_000)
        expect(stats.droppedByPeer).toBeGreaterThan(stats.opened - 5_000 - 1)
        // "Each within 2 s" is the goal (measured: about 0.2–1 s at worst on the busy 2-core machine);
        // the assertion leaves room for a heavier load, the figure above is what to watch.
        expect(slowest).toBeLessThan(4_000)
      } finally {
        churn.child.kill('SIGKILL')
        await t.cleanup()
      }
    },
  )

  it(
    "on Linux the peer-uid gate closes another user's sockets at accept; root agents get in meanwhile",
    { timeout: 60_000 },
    async () => {
      // Deadlines and budget far away: only the gate can close these sockets.
      const t = await startTestCompanion({
        handshakeTimeoutMs: 60_000,
        preAuth: { deadlineMs: 60_000, maxSockets: 1_000 },
      })
      const idle = startChurn(t.companion.port, 300, 20_000, false)
      try {
        const timings: number[] = []
        for (let i = 0; i < 5; i++) timings.push(await timedAgentConnect(t))
        const started = performance.now()
        const stats = await idle.stats
        console.info(
          `peer-uid gate: ${stats.droppedByPeer} of ${stats.opened} stranger sockets closed, last after ${(performance.now() - started).toFixed(0)} ms more`,
        )
        expect(stats).toEqual({ opened: 300, droppedByPeer: 300, failed: 0 })
        expect(timings).toHaveLength(5)
      } finally {
        idle.child.kill('SIGKILL')
        await t.cleanup()
      }
    },
  )
})

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
