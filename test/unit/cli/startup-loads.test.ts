// What the built `ask-user mcp` and `ask-user hook` load before their first reply (docs/performance.md,
// "Start-up of spawned commands"): a preload records, in order, every JavaScript file compiled and every
// write to stdout; a file counts as zod or the MCP SDK by the module comments the bundler leaves in it.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ROOT, ensureBuilt } from './built-cli'

const PRELOAD = `
const fs = require('node:fs')
const Module = require('node:module')
const log = process.env.LOAD_LOG
const compile = Module.prototype._compile
Module.prototype._compile = function (content, filename) {
  const kinds = [content.includes('// node_modules/zod/') && 'zod', content.includes('// node_modules/@modelcontextprotocol/') && 'sdk'].filter(Boolean)
  fs.appendFileSync(log, 'load ' + filename + ' ' + kinds.join(',') + '\\n')
  return compile.call(this, content, filename)
}
const write = process.stdout.write
process.stdout.write = function (chunk, ...rest) {
  fs.appendFileSync(log, 'stdout ' + String(chunk).slice(0, 60).replace(/\\n/g, ' ') + '\\n')
  return write.call(this, chunk, ...rest)
}
`

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

let dir: string
let preload: string

beforeAll(async () => {
  await ensureBuilt()
  dir = await mkdtemp(join(tmpdir(), 'ask-user-startup-'))
  preload = join(dir, 'trace.cjs')
  await writeFile(preload, PRELOAD)
}, 120_000)

afterAll(() => rm(dir, { recursive: true, force: true }))

interface Traced {
  code: number | null
  stdout: string
  /** `load <file> <zod,sdk>` and `stdout <text>` lines, in order. */
  events: string[]
}

let runs = 0
/** Runs `node --require trace bin/ask-user.js ...args`; `feed` gets stdin and the stdout seen so far. */
function traced(
  args: string[],
  env: Record<string, string>,
  feed: (stdin: NodeJS.WritableStream, stdout: string) => void,
): Promise<Traced> {
  const log = join(dir, `log-${++runs}.txt`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, BIN, ...args], {
      cwd: ROOT,
      // The compile cache (bin/compile-cache.js) compiles the bundles itself, past the preload's hook;
      // which files load is the same with it.
      env: { PATH: process.env['PATH'] ?? '', LOAD_LOG: log, ASK_USER_COMPILE_CACHE: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      feed(child.stdin, stdout)
    })
    child.on('error', reject)
    feed(child.stdin, '')
    child.on('close', (code) => {
      readFile(log, 'utf8').then((text) => resolve({ code, stdout, events: text.trim().split('\n') }), reject)
    })
  })
}

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
