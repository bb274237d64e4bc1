// The relay code (NATS, HPKE, the relay file's schema) is loaded by the built `ask-user mcp` only on an
// ask that goes to the relay: never without a relay configured, and with one only after the opening is
// answered (docs/performance.md, "Start-up of spawned commands", stays true), by the load trace
// (test/unit/cli/load-trace.ts): every JavaScript file compiled and every write to stdout, in order.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoadTrace, type LoadTrace } from '../../cli/load-trace'

const MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'ask_user_question', arguments: { questions: [{ id: 'go', question: 'Go?' }] } },
  },
]

let trace: LoadTrace

beforeAll(async () => {
  trace = await startLoadTrace('relay-lazy-')
}, 180_000)
afterAll(() => trace.close())

/** Runs the built `ask-user mcp` through the opening and one call (answered at once: no companion); the trace. */
async function traced(env: Record<string, string>): Promise<string[]> {
  const run = await trace.traced(['mcp'], { ASK_USER_HOME: trace.dir, ...env }, (stdin, stdout) => {
    if (stdout === '') stdin.write(MESSAGES.map((m) => JSON.stringify(m)).join('\n') + '\n')
    else if (stdout.includes('"id":3')) stdin.end()
  })
  return run.events
}

const relayCode = (events: string[]): string[] =>
  events.filter((e) => /^load .*(\/relay-(asker|file)-[\w-]+\.js|@nats-io|@hpke)/.test(e))

describe('the relay code in the built ask-user mcp', () => {
  it('is never loaded without a relay configured', async () => {
    const events = await traced({})
    expect(events.some((e) => e.startsWith('stdout {"result":{"content"'))).toBe(true)
    expect(relayCode(events)).toEqual([])
  })

  it('with a relay configured, loads only for the ask that goes there, after the opening is answered', async () => {
    // A relay file others may read: refused by the relay route, which proves the route (and its chunk) ran.
    const file = join(trace.dir, 'relay.json')
    await writeFile(file, '{}', { mode: 0o644 })
    const events = await traced({ ASK_USER_RELAY_FILE: file })
    const list = events.findIndex((e) => e.startsWith('stdout {"result":{"tools":'))
    expect(list).toBeGreaterThan(0)
    expect(relayCode(events.slice(0, list))).toEqual([])
    expect(relayCode(events.slice(list))).not.toEqual([])
  })
})
