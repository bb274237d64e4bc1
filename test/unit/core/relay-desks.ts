// Test helper: a loopback relay set up as a person would, for the core's relay tests: `relay init
// --loopback` in desk A's home, a real nats-server started from the config it wrote, `relay add-agent`
// for each agent, and a second desk paired through `relay pair` / `relay join` (the one-time line and the
// 6-digit code). The tests start their own companions on the two homes.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { main } from '../../../cli/main'
import { AgentRelayFileSchema, type AgentRelayFile } from '../../../cli/relay/agent-file'
import { openRemoteAsker, type RelayLink, type RemoteAsker } from '../../../relay/exchange'
import { freePort, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { memoryIo } from '../cli/memory-io'
import { pipeIo } from '../cli/relay/pipe-io'

export interface RelayDesks {
  /** The temp folder holding both homes, the relay's folder and the agents' files. */
  root: string
  /** The first desktop's home (it ran `relay init`). */
  homeA: string
  /** The paired device's home, named `deviceName`. */
  homeB: string
  relayUrl: string
  /** The nats-server config `relay init` wrote (to start the server again after a kill). */
  configPath: string
  /** The root recovery code `relay init` printed (what `relay connect` asks for on a second desktop). */
  recoveryCode: string
  server: RunningNatsServer
  /** The relay file `relay add-agent NAME` wrote. */
  agentFile(name: string): Promise<AgentRelayFile>
  /** A RemoteAsker for agent `name`, on its own link (closed by {@link close}). */
  openAgent(name: string): Promise<RemoteAsker>
  /** Closes the agents' links, stops the server (if still running) and removes `root`. */
  close(): Promise<void>
}

/** Sets up the relay, its agents and the paired device; `prefix` names the temp folder. */
export async function setUpRelayDesks(
  prefix: string,
  agents: readonly string[],
  deviceName = 'laptop-b',
): Promise<RelayDesks> {
  const root = await mkdtemp(join(tmpdir(), prefix))
  const homeA = join(root, 'desk-a')
  const homeB = join(root, 'desk-b')
  const port = await freePort()
  const relayUrl = `nats://127.0.0.1:${port}`
  const io = memoryIo({ ASK_USER_HOME: homeA })
  const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
  const ports = ['--client-port', String(port), '--ws-port', String(await freePort())]
  expect(await main([...init, '--loopback', ...ports, '--url', relayUrl], io)).toBe(0)
  const configPath = /start: nats-server -c (\S+)/.exec(io.out())![1]!
  const recoveryCode = /root recovery code: (\S+)/.exec(io.out())![1]!
  const server = await startNatsServer(configPath)
  for (const name of agents) {
    const addAgent = ['relay', 'add-agent', name, '--out', join(root, `${name}.json`)]
    expect(await main(addAgent, memoryIo({ ASK_USER_HOME: homeA }))).toBe(0)
  }
  const pairIo = pipeIo({ ASK_USER_HOME: homeA })
  const joinIo = pipeIo({ ASK_USER_HOME: homeB })
  const pairing = main(['relay', 'pair'], pairIo)
  const line = (await pairIo.waitForOut(/^(AUP1:\S+)$/m))[1]!
  const joining = main(['relay', 'join', '--name', deviceName], joinIo)
  joinIo.stdin.end(`${line}\n`)
  await pairIo.waitForOut(/Confirmation code: \d{6}/)
  pairIo.stdin.end('yes\n')
  expect(await pairing).toBe(0)
  expect(await joining).toBe(0)

  const links: RelayLink[] = []
  const agentFile = async (name: string): Promise<AgentRelayFile> =>
    AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, `${name}.json`), 'utf8')))
  return {
    root,
    homeA,
    homeB,
    relayUrl,
    configPath,
    recoveryCode,
    server,
    agentFile,
    async openAgent(name) {
      const opened = await openRemoteAsker(await agentFile(name), {
        allowOutdatedLoopback: true,
        reconnectWaitMs: 100,
      })
      links.push(opened.link)
      return opened.asker
    },
    async close() {
      for (const link of links) await link.close().catch(() => undefined)
      await server.stop()
      await rm(root, { recursive: true, force: true })
    },
  }
}
