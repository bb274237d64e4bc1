// End to end with real processes: the built `ask-user mcp` and `ask-user ask` as "remote" agents (an
// ASK_USER_HOME with no companion, the relay from ASK_USER_RELAY_FILE or ASK_USER_RELAY), a real
// operator-mode nats-server, and a desk in this process standing in for the second desktop. A preload
// sets the route's test options (short reconnect pauses, a short reach deadline); the product reads them
// from no flag or variable.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RELAY_TEST_OPTIONS, type RelayTestOptions } from '../../../../agent/relay-route'
import { RelayDesk, type RemoteAsk, type RemoteAskSettled } from '../../../../relay/exchange'
import { freePort, natsServerSkipReason } from '../../../helpers/nats-server'
import { runProcess } from '../../../helpers/run-process'
import { BIN, ROOT, ensureBuilt } from '../../cli/built-cli'
import { startCuttableProxy, type CuttableProxy } from '../exchange/cuttable-proxy'
import { nextEvent, startRelayWorld, until, type RelayWorld } from '../exchange/relay-world'
import { TEST_RELAY_OPTIONS, agentRelayFile, writeAgentRelayFile } from './agent-relay-file'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the relay agent process tests: ${skip}`)

const QUESTION = { id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }

describe.skipIf(skip)('remote agents as real processes through the relay (ask-user mcp, ask-user ask)', () => {
  let world: RelayWorld
  let proxy: CuttableProxy
  let desk: RelayDesk
  let dir: string
  let emptyHome: string
  const closers: Array<() => Promise<void>> = []

  /** A preload that sets the relay route's test options in the spawned process. */
  const preload = async (name: string, options: RelayTestOptions): Promise<string> => {
    const path = join(dir, `${name}.cjs`)
    await writeFile(
      path,
      `globalThis[Symbol.for(${JSON.stringify(RELAY_TEST_OPTIONS.description)})] = ${JSON.stringify(options)}\n`,
    )
    return path
  }
  const added = (agent: string): Promise<RemoteAsk> =>
    nextEvent<RemoteAsk>(
      (l) => desk.onAdded(l),
      (ask) => ask.agent.name === agent,
      60_000,
    )
  /** `ask-user mcp` with `env` (and PATH, the empty home), connected with the MCP SDK's client. */
  const mcpAgent = async (env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--require', await preload('mcp', TEST_RELAY_OPTIONS), BIN, 'mcp'],
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: emptyHome, ...env },
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({ name: 'remote-agent', version: '1.0.0' })
    await client.connect(transport)
    closers.push(() => client.close())
    return { client, stderr: () => stderr }
  }

  beforeAll(async () => {
    await ensureBuilt()
    world = await startRelayWorld({ devices: ['laptop'], agents: ['ci-job', 'devbox', 'cli-job', 'cli-interrupted'] })
    proxy = await startCuttableProxy(world.port)
    desk = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    dir = await mkdtemp(join(tmpdir(), 'relay-agents-'))
    emptyHome = await mkdtemp(join(tmpdir(), 'relay-agents-home-'))
  }, 180_000)
  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined)
    desk?.close()
    await proxy?.close()
    await world?.close()
    await rm(dir, { recursive: true, force: true })
    await rm(emptyHome, { recursive: true, force: true })
  })

  it('ask-user mcp with ASK_USER_RELAY_FILE and no companion: a desk answers, the MCP client gets the canonical JSON', async () => {
    const file = await writeAgentRelayFile(dir, 'ci-job.json', agentRelayFile(world, 'ci-job'))
    const { client } = await mcpAgent({ ASK_USER_RELAY_FILE: file })
    const seen = added('ci-job')
    const call = client.callTool({ name: 'ask_user_question', arguments: { questions: [QUESTION] } })
    const ask = await seen
    expect(ask.questions).toEqual([QUESTION])
    expect(await desk.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await call).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: '{"answers":[{"id":"go","selected":["Yes"]}]}' }],
    })
  }, 90_000)

  it('through a proxy cut mid-wait: the answer written while the agent is cut off still arrives', async () => {
    const file = await writeAgentRelayFile(dir, 'devbox.json', agentRelayFile(world, 'devbox', proxy.url))
    const { client } = await mcpAgent({ ASK_USER_RELAY_FILE: file })
    const seen = added('devbox')
    const call = client.callTool(
      { name: 'ask_user_question', arguments: { questions: [QUESTION] } },
      { timeout: 120_000, resetTimeoutOnProgress: true },
    )
    const ask = await seen
    proxy.cut()
    // The agent noticed and keeps trying to come back (each attempt is refused while cut).
    await until(() => proxy.refused() >= 3, 'the agent to try the relay again while cut', 30_000)
    expect(await desk.answer(ask.key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
    await until(() => proxy.refused() >= 10, 'a few more refused attempts', 60_000)
    proxy.restore()
    expect(await call).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: '{"answers":[{"id":"go","selected":["No"]}]}' }],
    })
  }, 120_000)

  it('ask-user ask with the inline ASK_USER_RELAY prints the canonical JSON and exits 0', async () => {
    const run = runProcess(
      process.execPath,
      ['--require', await preload('ask', TEST_RELAY_OPTIONS), BIN, 'ask', '--question', 'Ship it?', '--option', 'Yes'],
      ROOT,
      { ASK_USER_HOME: emptyHome, ASK_USER_RELAY: JSON.stringify(agentRelayFile(world, 'cli-job')) },
    )
    const ask = await added('cli-job')
    await desk.answer(ask.key, [{ id: 'q1', selected: ['Yes'] }])
    expect(await run).toEqual({ code: 0, stdout: '{"answers":[{"id":"q1","selected":["Yes"]}]}\n', stderr: '' })
  }, 90_000)

  it('ask-user ask interrupted (SIGINT) exits 130 and withdraws the ask on the relay', async () => {
    const child = spawn(
      process.execPath,
      ['--require', await preload('interrupted', TEST_RELAY_OPTIONS), BIN, 'ask', '--question', 'Ship it?'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          ASK_USER_HOME: emptyHome,
          ASK_USER_RELAY: JSON.stringify(agentRelayFile(world, 'cli-interrupted')),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    const ask = await added('cli-interrupted')
    const settled = nextEvent<RemoteAskSettled>(
      (l) => desk.onSettled(l),
      (s) => s.key === ask.key,
    )
    child.kill('SIGINT')
    expect(await exited).toBe(130)
    expect(stderr).toBe('Error: the ask was aborted before the person answered\n')
    expect(await settled).toEqual({ key: ask.key, outcome: 'withdrawn' })
  }, 60_000)

  it('ask-user ask with the relay unreachable from the start exits 4 after the reach deadline', async () => {
    const nobody = `nats://127.0.0.1:${await freePort()}`
    const file = await writeAgentRelayFile(dir, 'nobody.json', agentRelayFile(world, 'cli-job', nobody))
    const started = Date.now()
    const result = await runProcess(
      process.execPath,
      [
        '--require',
        await preload('unreached', { ...TEST_RELAY_OPTIONS, reachTimeoutMs: 2_000 }),
        BIN,
        'ask',
        '--question',
        'Ship it?',
      ],
      ROOT,
      { ASK_USER_HOME: emptyHome, ASK_USER_RELAY_FILE: file },
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000)
    expect(result).toEqual({
      code: 4,
      stdout: '',
      stderr: `Error: no local Ask User Companion is running, and RELAY_NEVER_REACHED: the relay at ${nobody} could not be reached within 2 s; check the URL and that the relay runs\n`,
    })
  }, 60_000)

  it('ask-user ask --timeout with the relay unreachable exits 124 at its timeout, not at the reach deadline', async () => {
    const nobody = `nats://127.0.0.1:${await freePort()}`
    const file = await writeAgentRelayFile(dir, 'nobody-timeout.json', agentRelayFile(world, 'cli-job', nobody))
    const started = Date.now()
    const result = await runProcess(
      process.execPath,
      [
        '--require',
        await preload('timeout', TEST_RELAY_OPTIONS),
        BIN,
        'ask',
        '--question',
        'Ship it?',
        '--timeout',
        '1',
      ],
      ROOT,
      { ASK_USER_HOME: emptyHome, ASK_USER_RELAY_FILE: file },
    )
    // The 30 s reach deadline is not waited out: the process ends soon after its own timeout.
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(result).toEqual({
      code: 124,
      stdout: '',
      stderr: 'Error: no answer within 1 s: the ask timed out and was withdrawn\n',
    })
  }, 60_000)
})
