import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAskUserMcpServer } from '../../../../cli/mcp/mcp-server'
import { startWaitingProgress, waitingMessage, type ProgressClock } from '../../../../cli/mcp/progress'
import type { CheckedAnswer } from '../../../../shared/answer-rules'

const args = { questions: [{ id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm' }] }] }
const answer = { answers: [{ id: 'pkg', selected: ['pnpm'] }] } as unknown as CheckedAnswer

/** A companion stand-in whose asks resolve (all pending ones) when the test says so. */
function pendingAsk(): {
  client: Parameters<typeof createAskUserMcpServer>[0]['client']
  answer: () => void
  asked: Promise<void>
} {
  const waiting: (() => void)[] = []
  let markAsked: () => void = () => {}
  const asked = new Promise<void>((resolve) => (markAsked = resolve))
  return {
    client: {
      setClientInfo: () => {},
      ask: async () => {
        markAsked()
        await new Promise<void>((resolve) => waiting.push(resolve))
        return answer
      },
    },
    answer: () => {
      for (const resolve of waiting.splice(0)) resolve()
    },
    asked,
  }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  vi.useRealTimers()
  for (const close of closers.splice(0)) await close()
})

async function connected(progressIntervalMs: number | undefined, stub: ReturnType<typeof pendingAsk>): Promise<Client> {
  const server = createAskUserMcpServer({
    client: stub.client,
    ...(progressIntervalMs !== undefined ? { progressIntervalMs } : {}),
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'progress-test', version: '1.0.0' })
  await client.connect(clientSide)
  closers.push(async () => {
    await client.close()
    await server.close()
  })
  return client
}

// The server's progress interval and the SDK client's request timeout both run on vitest's fake timers
// here: which comes first is then decided by the numbers under test, never by how busy the machine is
// (with real timers, a 100 ms client timeout failed under load when a 20 ms tick came late).
describe('ask-user mcp: progress while the person has not answered', () => {
  it('keeps a call alive past the client timeout when the client resets it on progress', async () => {
    const stub = pendingAsk()
    const client = await connected(20, stub)
    vi.useFakeTimers()
    const messages: string[] = []
    const progress: number[] = []
    const call = client.callTool({ name: 'ask_user_question', arguments: args }, undefined, {
      timeout: 100,
      resetTimeoutOnProgress: true,
      onprogress: (p) => {
        progress.push(p.progress)
        messages.push(p.message ?? '')
      },
    })
    // 400 ms: the call outlives its 100 ms timeout four times over, kept alive by 20 ticks.
    await vi.advanceTimersByTimeAsync(400)
    expect(progress).toHaveLength(20)
    stub.answer()
    expect(await call).toEqual({
      isError: false,
      content: [{ type: 'text', text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}' }],
    })
    expect(progress.length).toBeGreaterThanOrEqual(20)
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThan(progress[i - 1]!)
    for (const message of messages) expect(message).toMatch(/^the person has not answered yet \(waiting \d+ s\)$/)
  })

  it('without reset on progress the same client cuts the call at its timeout (what progress prevents)', async () => {
    const stub = pendingAsk()
    const client = await connected(20, stub)
    vi.useFakeTimers()
    const call = client.callTool({ name: 'ask_user_question', arguments: args }, undefined, {
      timeout: 100,
      onprogress: () => {},
    })
    let settled = false
    const outcome = call.then(
      () => ((settled = true), 'answered'),
      (error: unknown) => ((settled = true), error),
    )
    await vi.advanceTimersByTimeAsync(99)
    expect(settled).toBe(false) // progress alone does not extend it
    await vi.advanceTimersByTimeAsync(1)
    const error = await outcome
    expect(error).toBeInstanceOf(McpError)
    expect((error as McpError).message).toBe('MCP error -32001: Request timed out')
    stub.answer()
  })

  it('sends progress only for the call that carries a progress token', async () => {
    const stub = pendingAsk()
    const server = createAskUserMcpServer({ client: stub.client, progressIntervalMs: 20 })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const tokens: unknown[] = []
    const send = serverSide.send.bind(serverSide)
    serverSide.send = async (message, options) => {
      if ('method' in message && message.method === 'notifications/progress')
        tokens.push(message.params?.['progressToken'])
      return send(message, options)
    }
    await server.connect(serverSide)
    const client = new Client({ name: 'progress-test', version: '1.0.0' })
    await client.connect(clientSide)
    closers.push(async () => {
      await client.close()
      await server.close()
    })
    const silent = client.callTool({ name: 'ask_user_question', arguments: args })
    let seen = 0
    const loud = client.callTool({ name: 'ask_user_question', arguments: args }, undefined, {
      onprogress: () => {
        if (++seen === 3) stub.answer()
      },
    })
    await Promise.all([loud, silent])
    expect(tokens.length).toBeGreaterThanOrEqual(3)
    expect(new Set(tokens).size).toBe(1)
  })
})

describe('startWaitingProgress', () => {
  function fakeClock(): ProgressClock & { advance(ms: number): void } {
    let now = 1_000
    let tick: (() => void) | undefined
    let every = 0
    let next = 0
    return {
      now: () => now,
      setInterval: (fn, ms) => {
        tick = fn
        every = ms
        next = now + ms
        return {}
      },
      clearInterval: () => (tick = undefined),
      advance(ms) {
        const end = now + ms
        while (tick && next <= end) {
          now = next
          next += every
          tick()
        }
        now = end
      },
    }
  }

  it('sends every interval with the seconds waited and a message, until stopped; 30 s by default in the server', () => {
    const clock = fakeClock()
    const sent: unknown[] = []
    const stop = startWaitingProgress('t1', 30_000, async (p) => void sent.push(p), clock)
    clock.advance(95_000)
    stop()
    clock.advance(60_000)
    expect(sent).toEqual([
      { progressToken: 't1', progress: 30, message: 'the person has not answered yet (waiting 30 s)' },
      { progressToken: 't1', progress: 60, message: 'the person has not answered yet (waiting 1 min 0 s)' },
      { progressToken: 't1', progress: 90, message: 'the person has not answered yet (waiting 1 min 30 s)' },
    ])
  })

  it('schedules nothing with an interval of 0', () => {
    const clock = fakeClock()
    let scheduled = false
    const stop = startWaitingProgress('t1', 0, async () => {}, {
      ...clock,
      setInterval: (fn, ms) => ((scheduled = true), clock.setInterval(fn, ms)),
    })
    stop()
    expect(scheduled).toBe(false)
  })

  it('words long waits in hours and minutes', () => {
    expect(waitingMessage(0)).toBe('the person has not answered yet (waiting 0 s)')
    expect(waitingMessage(3 * 3_600_000 + 5 * 60_000 + 7_000)).toBe(
      'the person has not answered yet (waiting 3 h 5 min)',
    )
  })
})
