// The relay code (NATS, HPKE, the relay file's schema) is loaded by the built `ask-user mcp` only on an
// ask that goes to the relay: never without a relay configured, and with one only after the opening is
// answered (docs/performance.md, "Start-up of spawned commands", stays true). A preload records every
// JavaScript file compiled and every write to stdout, in order.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ROOT, ensureBuilt } from '../../cli/built-cli'

const PRELOAD = `
const fs = require('node:fs')
const Module = require('node:module')
const compile = Module.prototype._compile
Module.prototype._compile = function (content, filename) {
  fs.appendFileSync(process.env.LOAD_LOG, 'load ' + filename + '\\n')
  return compile.call(this, content, filename)
}
const write = process.stdout.write
process.stdout.write = function (chunk, ...rest) {
  fs.appendFileSync(process.env.LOAD_LOG, 'stdout ' + String(chunk).slice(0, 40).replace(/\\n/g, ' ') + '\\n')
  return write.call(this, chunk, ...rest)
}
`

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

let dir: string
let runs = 0

beforeAll(async () => {
  await ensureBuilt()
  dir = await mkdtemp(join(tmpdir(), 'relay-lazy-'))
  await writeFile(join(dir, 'trace.cjs'), PRELOAD)
}, 180_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Runs the built `ask-user mcp` through the opening and one call (answered at once: no companion); the trace. */
function traced(env: Record<string, string>): Promise<string[]> {
  const log = join(dir, `log-${++runs}.txt`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', join(dir, 'trace.cjs'), BIN, 'mcp'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', LOAD_LOG: log, ASK_USER_COMPILE_CACHE: '0', ASK_USER_HOME: dir, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (stdout.includes('"id":3')) child.stdin.end()
    })
    child.on('error', reject)
    child.stdin.write(MESSAGES.map((m) => JSON.stringify(m)).join('\n') + '\n')
    child.on('close', () => readFile(log, 'utf8').then((text) => resolve(text.trim().split('\n')), reject))
  })
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
    const file = join(dir, 'relay.json')
    await writeFile(file, '{}', { mode: 0o644 })
    const events = await traced({ ASK_USER_RELAY_FILE: file })
    const list = events.findIndex((e) => e.startsWith('stdout {"result":{"tools":'))
    expect(list).toBeGreaterThan(0)
    expect(relayCode(events.slice(0, list))).toEqual([])
    expect(relayCode(events.slice(list))).not.toEqual([])
  })
})
