// `ask-user mcp` answers a 2025-era `initialize` and `tools/list` before the MCP SDK loads
// (cli/mcp/early-replies.ts). These tests hold those replies to the SDK's own (its stdio entry serving the
// 2025 era), byte for byte for every protocol version it negotiates, and keep the precomputed values fresh.
import { spawn } from 'node:child_process'
import { PassThrough } from 'node:stream'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server'
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio'
import { describe, expect, it } from 'vitest'
import { createAskUserMcpServer } from '../../../../cli/mcp/mcp-server'
import { createAskUserQuestionTool } from '../../../../agent/tool-definition'
import { EarlyReplies } from '../../../../cli/mcp/early-replies'
import { version } from '../../../../package.json'
import { BIN, ROOT, ensureBuilt } from '../built-cli'

const init = (params: Record<string, unknown>, id: number | string = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params })
const client = { name: 'c', version: '1' }
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })

/** What the real SDK server (cli/mcp/mcp-server.ts behind the SDK's stdio entry) writes for `lines`. */
async function sdkOutput(lines: string[], replies: number): Promise<string[]> {
  const input = new PassThrough()
  const output = new PassThrough()
  const out: string[] = []
  let wanted: () => void = () => {}
  const enough = new Promise<void>((resolve) => (wanted = resolve))
  output.setEncoding('utf8').on('data', (chunk: string) => {
    out.push(chunk)
    if (out.length === replies) wanted()
  })
  const client = { ask: () => Promise.reject(new Error('no')), setClientInfo: () => {} }
  const connection = serveStdio(() => createAskUserMcpServer({ client, version }), {
    transport: new StdioServerTransport(input, output),
  })
  for (const line of lines) input.write(`${line}\n`)
  await enough
  await connection.close()
  return out
}

/** What the early replies write for `lines` (every line must be answered early or be quiet). */
function earlyOutput(lines: string[]): string[] {
  const early = new EarlyReplies(version)
  return lines.flatMap((line) => {
    const step = early.step(line)
    if (step.kind === 'handover') throw new Error(`handed over: ${line}`)
    return step.kind === 'reply' ? [step.line] : []
  })
}

describe('early replies of ask-user mcp', () => {
  it('cli/mcp/mcp-precomputed.json holds the SDK protocol versions and the tool list (regenerate: vitest -u)', async () => {
    const { name, title, description, inputSchema, annotations } = createAskUserQuestionTool()
    const precomputed = {
      protocolVersions: { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS },
      tools: [{ name, title, description, inputSchema, annotations }],
    }
    await expect(`${JSON.stringify(precomputed, null, 2)}\n`).toMatchFileSnapshot(
      '../../../../cli/mcp/mcp-precomputed.json',
    )
  })

  it.each<[string, string[]]>([
    [
      'the SDK client opening',
      [init({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: client }), INITIALIZED, LIST],
    ],
    [
      'an older supported version',
      [
        init({ protocolVersion: '2024-11-05', capabilities: { roots: { listChanged: true } }, clientInfo: client }),
        LIST,
      ],
    ],
    [
      'an unknown version (the SDK answers its latest)',
      [init({ protocolVersion: '1999-01-01', capabilities: {}, clientInfo: client }), INITIALIZED, LIST],
    ],
    ...SUPPORTED_PROTOCOL_VERSIONS.map((v): [string, string[]] => [
      `version ${v}`,
      [init({ protocolVersion: v, capabilities: {}, clientInfo: client }), INITIALIZED, LIST],
    ]),
    [
      'Claude Code-like capabilities and a string id',
      [
        init(
          {
            protocolVersion: '2025-06-18',
            capabilities: { roots: {}, elicitation: {}, sampling: {} },
            clientInfo: { ...client, title: 'C' },
          },
          'a',
        ),
        INITIALIZED,
        JSON.stringify({ jsonrpc: '2.0', id: 'b', method: 'tools/list', params: {} }),
      ],
    ],
  ])('%s: byte-identical to the SDK server', async (_name, lines) => {
    const early = earlyOutput(lines)
    expect(early.length).toBeGreaterThan(1)
    expect(early.join('')).toBe((await sdkOutput(lines, early.length)).join(''))
  })

  it.each([
    ['not JSON', ['{']],
    ['a request before initialize', [LIST]],
    [
      'an initialize with _meta',
      [init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client, _meta: {} })],
    ],
    ['an initialize without clientInfo', [init({ protocolVersion: '2025-06-18', capabilities: {} })]],
    [
      'a capability the SDK checks in depth',
      [init({ protocolVersion: '2025-06-18', capabilities: { experimental: { x: {} } }, clientInfo: client })],
    ],
    [
      'a malformed capability',
      [init({ protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: 'yes' } }, clientInfo: client })],
    ],
    ['a fractional id', [init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client }, 1.5)]],
    [
      'a ping after initialize',
      [
        init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client }),
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      ],
    ],
    [
      'tools/list with a cursor',
      [
        init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client }),
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'x' } }),
      ],
    ],
    [
      'a 2026-07-28 opening (server/discover with its _meta envelope)',
      [
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        }),
      ],
    ],
    [
      'a 2026-07-28 tools/list',
      [
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        }),
      ],
    ],
    [
      'anything after tools/list',
      [init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: client }), LIST, LIST],
    ],
  ])('leaves %s to the SDK', (_name, lines) => {
    const early = new EarlyReplies(version)
    const steps = lines.map((line) => early.step(line).kind)
    expect(steps.at(-1)).toBe('handover')
    expect(steps.slice(0, -1)).not.toContain('handover')
  })
})

describe('the built ask-user mcp', () => {
  it('answers the opening byte for byte as the SDK server, then hands over without repeating a reply', async () => {
    await ensureBuilt()
    const opening = [
      init({ protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: client }),
      INITIALIZED,
      LIST,
    ]
    const expected = (await sdkOutput(opening, 2)).join('')
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: '/nonexistent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let stderr = ''
    const lines = (n: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (out.split('\n').length > n) resolve()
          else child.stdout.once('data', check)
        }
        check()
      })
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.stdin.write(opening.map((line) => `${line}\n`).join(''))
    await lines(2)
    expect(out).toBe(expected)
    // After the handover the SDK answers; the early replies are not sent again.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' })}\n`,
    )
    await lines(4)
    child.stdin.end()
    expect(await exited).toBe(0)
    const [, , ping, list] = out.split('\n')
    expect(ping).toBe('{"result":{},"jsonrpc":"2.0","id":3}')
    expect(list).toBe(expected.split('\n')[1]!.replace(/"id":2}$/, '"id":4}'))
    expect(out.split('\n')).toHaveLength(5)
    expect(stderr).toBe('')
  }, 120_000)
})
