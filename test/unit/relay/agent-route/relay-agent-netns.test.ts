// A remote agent in its own network namespace (a dev box stand-in) asks through the relay and its network
// switches mid-wait: the link it asked over is deleted and another, with another address, comes up. The
// agent notices the dead link by its pings, reconnects over the new one, and still gets the answer a desk
// wrote meanwhile. Needs root and `ip netns`; skipped with the reason printed where they are refused.
//
//   agent (ns: 127.0.0.1:4222) → forwarder in the ns → 10.231.9.9 via link A, later link B
//   → forwarder on the host (10.231.9.9, an address on its loopback interface) → nats-server on 127.0.0.1
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RELAY_TEST_OPTIONS } from '../../../../agent/relay-route'
import { RelayDesk, type RemoteAsk } from '../../../../relay/exchange'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { BIN, ROOT, ensureBuilt } from '../../cli/built-cli'
import { nextEvent, startRelayWorld, type RelayWorld } from '../exchange/relay-world'
import { TEST_RELAY_OPTIONS, agentRelayFile, writeAgentRelayFile } from './agent-relay-file'

const tag = String(process.pid % 100_000)
const NS = `aurelay${tag}`
/** Interface names (15 characters at most): link A and B on the host and in the namespace. */
const IF = { hostA: `arha${tag}`, nsA: `arna${tag}`, hostB: `arhb${tag}`, nsB: `arnb${tag}` }
const RELAY_ADDRESS = '10.231.9.9'

function ip(...args: string[]): string | undefined {
  const run = spawnSync('ip', args, { encoding: 'utf8' })
  return run.status === 0 ? undefined : `ip ${args.join(' ')}: ${(run.stderr || run.error?.message || '').trim()}`
}
function mustIp(...args: string[]): void {
  const failed = ip(...args)
  if (failed) throw new Error(failed)
}

/** Why this test cannot run here, or undefined: it tries to make (and remove) a namespace. */
function netnsSkipReason(): string | undefined {
  const nats = natsServerSkipReason()
  if (nats) return nats
  if (process.platform !== 'linux') return 'network namespaces are Linux only'
  const probe = `aurprobe${tag}`
  const refused = ip('netns', 'add', probe)
  if (refused) return `ip netns is refused here (${refused})`
  ip('netns', 'del', probe)
  return undefined
}

const skip = netnsSkipReason()
if (skip) console.log(`skipping the network-namespace relay test: ${skip}`)

/** A TCP forwarder (one line of Node), run inside the namespace: 127.0.0.1:4222 → the relay address. */
const FORWARDER = `
const net = require('node:net')
const [listenPort, host, port] = process.argv.slice(2)
net.createServer((client) => {
  const upstream = net.createConnection({ host, port: Number(port) })
  for (const s of [client, upstream]) s.on('error', () => { client.destroy(); upstream.destroy() })
  client.pipe(upstream).pipe(client)
}).listen(Number(listenPort), '127.0.0.1', () => console.log('ready'))
`

/** The host end: `address` (a free port) → 127.0.0.1:`target`, in this process; `close()` drops every link. */
async function hostForwarder(address: string, target: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => socket.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, address, resolve))
  const bound = server.address()
  if (bound === null || typeof bound === 'string') throw new Error('the host forwarder has no port')
  return {
    port: bound.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

/** Resolves once `child` wrote `text` on stdout. */
function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (out.includes(text)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`exited (${code}) before printing ${text}`)))
  })
}

describe.skipIf(skip)('a remote agent in a network namespace whose network switches mid-wait', () => {
  let world: RelayWorld
  let desk: RelayDesk
  let dir: string
  let host: { port: number; close(): Promise<void> } | undefined
  const children: ChildProcess[] = []

  beforeAll(async () => {
    await ensureBuilt()
    world = await startRelayWorld({ devices: ['laptop'], agents: ['devbox'] })
    desk = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    dir = await mkdtemp(join(tmpdir(), 'relay-netns-'))
    mustIp('addr', 'add', `${RELAY_ADDRESS}/32`, 'dev', 'lo')
    host = await hostForwarder(RELAY_ADDRESS, world.port)
    mustIp('netns', 'add', NS)
    mustIp('-n', NS, 'link', 'set', 'lo', 'up')
    // Link A: the network the agent starts on.
    mustIp('link', 'add', IF.hostA, 'type', 'veth', 'peer', 'name', IF.nsA)
    mustIp('link', 'set', IF.nsA, 'netns', NS)
    mustIp('addr', 'add', '10.231.1.1/24', 'dev', IF.hostA)
    mustIp('link', 'set', IF.hostA, 'up')
    mustIp('-n', NS, 'addr', 'add', '10.231.1.2/24', 'dev', IF.nsA)
    mustIp('-n', NS, 'link', 'set', IF.nsA, 'up')
    mustIp('-n', NS, 'route', 'add', `${RELAY_ADDRESS}/32`, 'via', '10.231.1.1')
  }, 180_000)

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    ip('netns', 'del', NS)
    ip('link', 'del', IF.hostB)
    ip('link', 'del', IF.hostA)
    ip('addr', 'del', `${RELAY_ADDRESS}/32`, 'dev', 'lo')
    await host?.close()
    desk?.close()
    await world?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('ask-user ask keeps waiting across the switch and prints the answer written meanwhile', async () => {
    const forwarderFile = join(dir, 'forwarder.cjs')
    await writeFile(forwarderFile, FORWARDER)
    const forwarder = spawn(
      'ip',
      ['netns', 'exec', NS, process.execPath, forwarderFile, '4222', RELAY_ADDRESS, String(host!.port)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(forwarder)
    await printed(forwarder, 'ready')

    const preload = join(dir, 'options.cjs')
    await writeFile(
      preload,
      `globalThis[Symbol.for(${JSON.stringify(RELAY_TEST_OPTIONS.description)})] = ${JSON.stringify(TEST_RELAY_OPTIONS)}\n`,
    )
    const file = await writeAgentRelayFile(dir, 'devbox.json', agentRelayFile(world, 'devbox', 'nats://127.0.0.1:4222'))
    const home = await mkdtemp(join(dir, 'home-'))
    const seen = nextEvent<RemoteAsk>(
      (l) => desk.onAdded(l),
      (ask) => ask.agent.name === 'devbox',
      60_000,
    )
    const agent = spawn(
      'ip',
      [
        'netns',
        'exec',
        NS,
        process.execPath,
        '--require',
        preload,
        BIN,
        'ask',
        '--question',
        'Ship it?',
        '--option',
        'Yes',
        '--timeout',
        '170',
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', ASK_USER_HOME: home, ASK_USER_RELAY_FILE: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    children.push(agent)
    let stdout = ''
    let stderr = ''
    agent.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    agent.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => agent.on('close', (code) => resolve(code)))
    const ask = await seen

    // The switch: link A goes away with its address; link B, another network, comes up.
    mustIp('-n', NS, 'link', 'del', IF.nsA)
    mustIp('link', 'add', IF.hostB, 'type', 'veth', 'peer', 'name', IF.nsB)
    mustIp('link', 'set', IF.nsB, 'netns', NS)
    mustIp('addr', 'add', '10.231.2.1/24', 'dev', IF.hostB)
    mustIp('link', 'set', IF.hostB, 'up')
    mustIp('-n', NS, 'addr', 'add', '10.231.2.2/24', 'dev', IF.nsB)
    mustIp('-n', NS, 'link', 'set', IF.nsB, 'up')
    mustIp('-n', NS, 'route', 'add', `${RELAY_ADDRESS}/32`, 'via', '10.231.2.1')

    expect(await desk.answer(ask.key, [{ id: 'q1', selected: ['Yes'] }])).toEqual({ won: true })
    expect({ code: await exited, stdout, stderr }).toEqual({
      code: 0,
      stdout: '{"answers":[{"id":"q1","selected":["Yes"]}]}\n',
      stderr: '',
    })
  }, 180_000)
})
