// What the built `ask-user mcp` and `ask-user hook` load before their first reply (docs/performance.md,
// "Start-up of spawned commands"), by the load trace (load-trace.ts): every JavaScript file compiled and
// every write to stdout, in order; a file counts as zod or the MCP SDK by the module comments in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoadTrace, type LoadTrace } from './load-trace'

const PERMISSION_REQUEST = {
  session_id: '3f2a9c1e-77aa-4b1e-9d0f-2c5e8a1b6d42',
  transcript_path: '/tmp/x.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests' },
}

const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]

let trace: LoadTrace
let dir: string

beforeAll(async () => {
  trace = await startLoadTrace('ask-user-startup-')
  dir = trace.dir
}, 120_000)

afterAll(() => trace.close())

const traced: LoadTrace['traced'] = (...args) => trace.traced(...args)

const heavy = (events: string[]): string[] => events.filter((e) => /^load .* (zod|sdk|zod,sdk)$/.test(e))

describe('start-up of the built ask-user mcp', () => {
  it('writes the initialize and tools/list replies before zod or the MCP SDK load, and from its own bundle', async () => {
    const run = await traced(['mcp'], { ASK_USER_HOME: dir }, (stdin, stdout) => {
      if (stdout === '') stdin.write(OPENING.map((m) => JSON.stringify(m)).join('\n') + '\n')
      else if (stdout.split('\n').length === 3) stdin.end()
    })
    expect(run.code).toBe(0)
    const list = run.events.findIndex((e) => e.startsWith('stdout {"result":{"tools":'))
    expect(list).toBeGreaterThan(0)
    expect(run.events.slice(0, list).filter((e) => e.startsWith('stdout'))).toHaveLength(1)
    expect(heavy(run.events.slice(0, list))).toEqual([])
    expect(run.events.slice(0, list).some((e) => e.includes('/out/main/cli.js'))).toBe(false)
    // The SDK does load once the opening is answered (and this is how the trace tells zod and the SDK apart).
    expect(heavy(run.events.slice(list)).join('\n')).toMatch(/[ ,]sdk$/m)
    expect(heavy(run.events.slice(list)).join('\n')).toMatch(/ zod/)
  })
})

describe('start-up of the built ask-user hook', () => {
  it('with no companion loads neither zod nor the MCP SDK, and prints nothing', async () => {
    const run = await traced(['hook', 'claude-code'], { ASK_USER_HOME: dir, HOME: dir }, (stdin, stdout) => {
      if (stdout === '') stdin.end(JSON.stringify(PERMISSION_REQUEST))
    })
    expect(run).toMatchObject({ code: 0, stdout: '' })
    const loaded = run.events.filter((e) => e.startsWith('load '))
    expect(loaded.length).toBeGreaterThan(2)
    expect(heavy(loaded)).toEqual([])
    expect(loaded.some((e) => e.includes('/out/main/cli.js'))).toBe(false)
  })

  it('with a companion to try, maps the event with zod (so the trace above would see it)', async () => {
    const env = { ASK_USER_HOME: dir, HOME: dir, ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent', ASK_USER_TOKEN: 'x' }
    const run = await traced(['hook', 'claude-code'], env, (stdin, stdout) => {
      if (stdout === '') stdin.end(JSON.stringify(PERMISSION_REQUEST))
    })
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(heavy(run.events).join('\n')).toMatch(/ zod/)
    expect(heavy(run.events).join('\n')).not.toMatch(/sdk/)
  })
})
