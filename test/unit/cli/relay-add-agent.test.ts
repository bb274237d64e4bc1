import { connect, credsAuthenticator } from '@nats-io/transport-node'
import { cp, lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { AgentRelayFileSchema } from '../../../cli/relay/agent-file'
import { loadRenewals, RELAY_FILES, RENEWALS_FILE } from '../../../relay/home/state'
import { findMember, parseRosterRecord, verifyRoster, verifyRosterSignature } from '../../../relay/crypto'
import { BUCKETS } from '../../../relay/nats/templates'
import { connectRelay, getEntry } from '../../../relay/pairing'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { memoryIo } from './memory-io'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay add-agent tests: ${skip}`)

const storedRoster = async (home: string) => {
  const stored = JSON.parse(await readFile(join(home, RELAY_FILES.roster), 'utf8')) as {
    bytes: string
    signature: string
  }
  return {
    bytes: new Uint8Array(Buffer.from(stored.bytes, 'base64url')),
    signature: new Uint8Array(Buffer.from(stored.signature, 'base64url')),
  }
}

describe.skipIf(skip)('ask-user relay add-agent NAME --out FILE', () => {
  let root: string
  let home: string
  let server: RunningNatsServer
  let port: number

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-cli-agent-'))
    home = join(root, 'home')
    port = await freePort()
    const dir = join(root, 'relay')
    const args = ['relay', 'init', '--self-hosted', dir, '--origin', 'https://inbox.example', '--loopback']
    args.push('--client-port', String(port), '--ws-port', String(await freePort()), '--url', `nats://127.0.0.1:${port}`)
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(args, io)).toBe(0)
    server = await startNatsServer(join(dir, 'nats-server.conf'))
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('writes one 0600 file that parses, connects to the real server, and is listed in the re-signed roster', async () => {
    const out = join(root, 'builder.json')
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'add-agent', 'builder', '--ttl', '1h', '--out', out], io)).toBe(0)
    expect(io.out()).toBe('')
    expect((await lstat(out)).mode & 0o777).toBe(0o600)
    const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(out, 'utf8')))
    expect(file.url).toBe(`nats://127.0.0.1:${port}`)
    expect(file.credsExpiresAt - Date.now() / 1000).toBeGreaterThan(3_500)
    expect(file.credsExpiresAt - Date.now() / 1000).toBeLessThanOrEqual(3_600)
    // The expiry is recorded in the home (0600) for the Relay view, under the agent's roster id.
    expect((await lstat(join(home, RENEWALS_FILE))).mode & 0o777).toBe(0o600)
    const renewals = await loadRenewals(home)
    expect(renewals.agents).toEqual({ [file.agent.member.id]: { expiresAt: file.credsExpiresAt * 1000 } })
    // No secret of the file is echoed by the command.
    expect(io.err()).not.toContain(file.agent.signSeed)
    expect(io.err()).not.toContain(file.creds.split('\n').find((line) => line.startsWith('SU')) ?? 'no seed line')

    const nc = await connect({
      servers: file.url,
      authenticator: credsAuthenticator(new TextEncoder().encode(file.creds)),
      inboxPrefix: '_INBOX.builder',
      reconnect: false,
    })
    expect(nc.info?.server_name ?? nc.info?.version).toBeTruthy()
    await nc.close()

    const { bytes, signature } = await storedRoster(home)
    const roster = await verifyRoster(bytes, signature, file.rootPublicKey, { highestSeenVersion: 1, now: Date.now() })
    expect(roster.version).toBe(2)
    expect(findMember(roster, file.agent.member.id)).toEqual(file.agent.member)
    expect(roster.members.map((member) => member.role).sort()).toEqual(['agent', 'desktop'])
  })

  it('refuses an existing file and a link, and leaves the roster as it was', async () => {
    const before = await readFile(join(home, RELAY_FILES.roster), 'utf8')
    const existing = join(root, 'existing.json')
    await writeFile(existing, 'keep me')
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'add-agent', 'other', '--out', existing], io)).toBe(1)
    expect(await readFile(existing, 'utf8')).toBe('keep me')
    const link = join(root, 'link.json')
    await symlink(join(root, 'target.json'), link)
    expect(await main(['relay', 'add-agent', 'other', '--out', link], memoryIo({ ASK_USER_HOME: home }))).toBe(1)
    await expect(lstat(join(root, 'target.json'))).rejects.toThrow(/ENOENT/)
    expect(await readFile(join(home, RELAY_FILES.roster), 'utf8')).toBe(before)
  })

  it('refuses a taken name, a bad name, a bad TTL and a plain-text remote URL with stable codes', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['builder', '--out', join(root, 'dup.json')], /RELAY_NAME_TAKEN/],
      [['a.b', '--out', join(root, 'dot.json')], /RELAY_BAD_NAME/],
      [['slow', '--ttl', '31d', '--out', join(root, 'ttl.json')], /RELAY_BAD_TTL/],
      [['remote', '--url', 'nats://relay.example:4222', '--out', join(root, 'url.json')], /RELAY_URL_NOT_TLS/],
    ]
    for (const [args, code] of cases) {
      const io = memoryIo({ ASK_USER_HOME: home })
      expect(await main(['relay', 'add-agent', ...args], io)).toBe(1)
      expect(io.err()).toMatch(code)
      await expect(lstat(args.at(-1)!)).rejects.toThrow(/ENOENT/)
    }
  })

  it('adds the agent to the relay at once: the roster the relay serves lists it', async () => {
    const out = join(root, 'reviewer.json')
    expect(await main(['relay', 'add-agent', 'reviewer', '--out', out], memoryIo({ ASK_USER_HOME: home }))).toBe(0)
    const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(out, 'utf8')))
    // Read as the agent itself reads it, not through the desktop (whose connection would publish its copy).
    const nc = await connectRelay(file.url, file.creds, 'reviewer', { allowOutdatedLoopback: true })
    try {
      const record = parseRosterRecord((await getEntry(nc, BUCKETS.roster, 'current'))!.value)!
      const served = await verifyRosterSignature(record.bytes, record.signature, file.rootPublicKey)
      expect(findMember(served, file.agent.member.id)).toEqual(file.agent.member)
      const { bytes } = await storedRoster(home)
      expect(Buffer.from(bytes).equals(Buffer.from(record.bytes))).toBe(true)
    } finally {
      await nc.close()
    }
  })

  it('with the relay out of reach refuses RELAY_UNREACHABLE and leaves no file, roster or expiry behind', async () => {
    const away = join(root, 'away-home')
    await cp(home, away, { recursive: true })
    const settingsPath = join(away, RELAY_FILES.settings)
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as Record<string, unknown>
    await writeFile(settingsPath, JSON.stringify({ ...settings, url: `nats://127.0.0.1:${await freePort()}` }), {
      mode: 0o600,
    })
    const roster = await readFile(join(away, RELAY_FILES.roster), 'utf8')
    const renewals = await readFile(join(away, RENEWALS_FILE), 'utf8')
    const out = join(root, 'offline.json')
    const io = memoryIo({ ASK_USER_HOME: away })
    expect(await main(['relay', 'add-agent', 'offline', '--out', out], io)).toBe(1)
    expect(io.err()).toMatch(/^Error: RELAY_UNREACHABLE: The relay could not be reached .*the agent was not added/m)
    await expect(lstat(out)).rejects.toThrow(/ENOENT/)
    expect(await readFile(join(away, RELAY_FILES.roster), 'utf8')).toBe(roster)
    expect(await readFile(join(away, RENEWALS_FILE), 'utf8')).toBe(renewals)
  })

  it('without init says RELAY_NOT_INITIALIZED', async () => {
    const io = memoryIo({ ASK_USER_HOME: join(root, 'empty-home') })
    expect(await main(['relay', 'add-agent', 'x', '--out', join(root, 'x.json')], io)).toBe(1)
    expect(io.err()).toMatch(/RELAY_NOT_INITIALIZED: .*relay init/)
  })
})
