// `ask-user mcp` in process: the early front answers the opening, then the SDK takes over the stream
// (cli/mcp/handover.ts) and sees every line in order, answering each exactly once.
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { run } from '../../../../cli/commands/mcp'
import type { CliIo } from '../../../../cli/io'

interface Session {
  io: CliIo
  stdin: PassThrough
  lines: (n: number) => Promise<string[]>
  abort: () => void
}

function session(): Session {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const controller = new AbortController()
  let out = ''
  const waiters: Array<() => void> = []
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const wake of waiters.splice(0)) wake()
  })
  const lines = async (n: number): Promise<string[]> => {
    while (out.split('\n').length <= n) await new Promise<void>((resolve) => waiters.push(resolve))
    return out.split('\n').slice(0, -1)
  }
  const io: CliIo = {
    stdin,
    stdout,
    stderr: new PassThrough(),
    env: { ASK_USER_HOME: '/nonexistent' },
    cwd: process.cwd(),
    signal: controller.signal,
  }
  return { io, stdin, lines, abort: () => controller.abort() }
}

const line = (message: object): string => `${JSON.stringify(message)}\n`
const INIT = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
})
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' })
const UNKNOWN_TOOL = line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', arguments: {} } })

describe('ask-user mcp handover', () => {
  it('a request the front leaves to the SDK, in the same chunk as initialize, is answered once, after it', async () => {
    const s = session()
    const code = run([], s.io)
    s.stdin.write(INIT + INITIALIZED + UNKNOWN_TOOL)
    const [init, call, ...rest] = await s.lines(2)
    expect(JSON.parse(init!)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'ask-user' } },
    })
    expect(JSON.parse(call!)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { isError: true, content: [{ type: 'text', text: 'Error: unknown tool "nope"' }] },
    })
    expect(rest).toEqual([])
    s.stdin.end()
    expect(await code).toBe(0)
    expect(await s.lines(2)).toHaveLength(2)
  })

  it('a partial last line at the end of stdin goes to the SDK, and the session ends with exit 0', async () => {
    const s = session()
    const code = run([], s.io)
    s.stdin.end(INIT + '{"jsonrpc":"2.0","id":5,"method":"ping"}')
    expect(await code).toBe(0)
    const out = await s.lines(1)
    expect(out).toHaveLength(1)
    expect(JSON.parse(out[0]!)).toMatchObject({ id: 1 })
  })

  it('stdin ending after the early replies ends the session without loading the SDK; an interrupt gives 130', async () => {
    const ended = session()
    const first = run([], ended.io)
    ended.stdin.end(INIT)
    expect(await first).toBe(0)
    expect(await ended.lines(1)).toHaveLength(1)
    const interrupted = session()
    const second = run([], interrupted.io)
    interrupted.stdin.write(INIT)
    await interrupted.lines(1)
    interrupted.abort()
    expect(await second).toBe(130)
  })
})
