// A home folder that is the first desktop of a loopback relay, made as a person does it with the real CLI:
// `relay init --loopback`, a real nats-server started from the config it wrote, `relay add-agent` for each
// agent and, when asked, a second laptop paired with `relay pair` + `relay join` (the one-time line, the
// 6-digit code, "yes" on the desktop). `ask-user serve` in that home starts the relay bridge.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AgentRelayFileSchema } from '../../../cli/relay/agent-file'
import { openRemoteAsker, type RelayLink, type RemoteAsker } from '../../../relay/exchange'
import { freePort, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { BIN } from './serve'

export interface RelayHome {
  root: string
  /** The first desktop's home: run `ask-user serve` there. */
  home: string
  server: RunningNatsServer
  /** `ask-user ARGS` in the first desktop's home; its stdout. */
  cli(args: string[]): string
  /** A RemoteAsker for agent `name` (its link is closed by {@link close}). */
  openAgent(name: string): Promise<RemoteAsker>
  /** Closes the agents' links, stops the server and removes `root`. */
  close(): Promise<void>
}

const envFor = (home: string): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  ASK_USER_HOME: home,
})

/** Makes the relay home; `pairDevice` names a second laptop to pair (none when absent). */
export async function makeRelayHome(agents: readonly string[], pairDevice?: string): Promise<RelayHome> {
  const root = await mkdtemp(join(tmpdir(), 'relay-e2e-'))
  const home = join(root, 'home')
  const cli = (args: string[]): string =>
    execFileSync(process.execPath, [BIN, ...args], { env: envFor(home), encoding: 'utf8' })
  const port = await freePort()
  const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
  const ports = ['--loopback', '--client-port', String(port), '--ws-port', String(await freePort())]
  const printed = cli([...init, ...ports, '--url', `nats://127.0.0.1:${port}`])
  const server = await startNatsServer(/start: nats-server -c (\S+)/.exec(printed)![1]!)
  for (const name of agents) cli(['relay', 'add-agent', name, '--out', join(root, `${name}.json`)])
  if (pairDevice !== undefined) await pair(home, join(root, pairDevice), pairDevice)
  const links: RelayLink[] = []
  return {
    root,
    home,
    server,
    cli,
    async openAgent(name) {
      const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, `${name}.json`), 'utf8')))
      const opened = await openRemoteAsker(file, { allowOutdatedLoopback: true })
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

/** `relay pair` in `desktopHome` and `relay join --name NAME` in `deviceHome`, as two real processes. */
async function pair(desktopHome: string, deviceHome: string, name: string): Promise<void> {
  const desk = running(['relay', 'pair'], desktopHome)
  const line = (await desk.waitFor(/^(AUP1:\S+)$/m))[1]!
  const device = running(['relay', 'join', '--name', name], deviceHome)
  device.child.stdin.end(`${line}\n`)
  await desk.waitFor(/Confirmation code: \d{6}/)
  desk.child.stdin.end('yes\n')
  const codes = await Promise.all([desk.exited, device.exited])
  if (codes.some((code) => code !== 0)) throw new Error(`pairing failed: relay pair / join exited ${codes.join(' / ')}`)
}

/** `ask-user ARGS` in `home` with piped stdio; `waitFor` resolves on the first match in its stdout. */
function running(args: string[], home: string) {
  const child = spawn(process.execPath, [BIN, ...args], { env: envFor(home), stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  const checks = new Set<() => void>()
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const check of [...checks]) check()
  })
  child.stderr.resume()
  return {
    child,
    waitFor: (pattern: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (!match) return
          checks.delete(check)
          resolve(match)
        }
        checks.add(check)
        child.once('exit', (code) =>
          reject(new Error(`ask-user ${args.join(' ')} exited ${code} before ${pattern}: ${out}`)),
        )
        check()
      }),
    exited: once(child, 'exit').then(([code]) => code as number | null),
  }
}
