import { connect, credsAuthenticator } from '@nats-io/transport-node'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Algorithms, encodeUser, fmtCreds } from '@nats-io/jwt'
import { createUser, fromSeed } from '@nats-io/nkeys'
import { mintAgentCredential, mintDeviceCredential, parseTtl } from '../../../relay/nats/credentials'
import { initSelfHosted, type SelfHostedInit } from '../../../relay/nats/init'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay/nats init tests: ${skip}`)

describe.skipIf(skip)('initSelfHosted against Debian nats-server', () => {
  let root: string
  let init: SelfHostedInit
  let server: RunningNatsServer
  let port: number

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-init-'))
    port = await freePort()
    init = await initSelfHosted(join(root, 'relay'), {
      loopbackTest: true,
      clientPort: port,
      websocketPort: await freePort(),
      allowedOrigins: ['https://inbox.example'],
    })
    server = await startNatsServer(init.configPath)
  })
  afterAll(async () => {
    await server?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('writes a private folder and config with no secret in it', async () => {
    expect((await stat(join(root, 'relay'))).mode & 0o777).toBe(0o700)
    expect((await stat(init.configPath)).mode & 0o777).toBe(0o600)
    const config = await readFile(init.configPath, 'utf8')
    expect(config).toMatch(/resolver: \{ type: full/)
    expect(config).toMatch(/compression: false/)
    expect(config).toMatch(/allowed_origins: \["https:\/\/inbox.example"\]/)
    for (const secret of [
      init.accountSeed,
      init.companionKeys.operatorSigningSeed,
      ...Object.values(init.companionKeys.roleSigningSeeds),
    ]) {
      expect(config).not.toContain(secret)
    }
    expect(init.recoveryText).toMatch(/operator seed: SO/)
  })

  it('a scoped agent credential connects and gets its role template', async () => {
    const cred = await mintAgentCredential(
      { accountPublicKey: init.companionKeys.accountPublicKey, signingSeed: init.companionKeys.roleSigningSeeds.agent },
      'agent1',
      60,
    )
    const nc = await connect({
      servers: `127.0.0.1:${port}`,
      authenticator: credsAuthenticator(new TextEncoder().encode(cred.creds)),
      inboxPrefix: '_INBOX.agent1',
    })
    expect(nc.info?.version).toBe('2.9.10')
    await nc.close()
  })

  const connectWith = (creds: string, name: string) =>
    connect({
      servers: `127.0.0.1:${port}`,
      authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
      inboxPrefix: `_INBOX.${name}`,
      reconnect: false,
    })

  it('a credential minted for 2 s is refused at connect once it has expired (polled, no fixed sleep)', async () => {
    const signer = {
      accountPublicKey: init.companionKeys.accountPublicKey,
      signingSeed: init.companionKeys.roleSigningSeeds.device,
    }
    const cred = await mintDeviceCredential(signer, 'phone1', 'device', 2)
    const first = await connectWith(cred.creds, 'phone1')
    await first.close()
    // Connect again until the server refuses the expired credential (bounded by the poll's deadline).
    const attempt = async (): Promise<string> => {
      try {
        await (await connectWith(cred.creds, 'phone1')).close()
        return 'connected'
      } catch (error) {
        return String(error)
      }
    }
    await expect.poll(attempt, { timeout: 15_000, interval: 200 }).toMatch(/authorization violation|expired/i)
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(cred.expiresAt)
  })

  it('a user JWT from a scoped key that claims wider permissions is refused at connect', async () => {
    const user = createUser()
    const jwt = await encodeUser(
      'agent1',
      user,
      init.companionKeys.accountPublicKey,
      { pub: { allow: ['>'] }, sub: { allow: ['>'] } },
      {
        algorithm: Algorithms.v2,
        signer: fromSeed(new TextEncoder().encode(init.companionKeys.roleSigningSeeds.agent)),
      },
    )
    await expect(connectWith(new TextDecoder().decode(fmtCreds(jwt, user)), 'agent1')).rejects.toThrow(
      /authorization violation/i,
    )
  })

  it('refuses bad names and TTLs with stable codes', async () => {
    const signer = {
      accountPublicKey: init.companionKeys.accountPublicKey,
      signingSeed: init.companionKeys.roleSigningSeeds.agent,
    }
    await expect(mintAgentCredential(signer, 'a.b', 60)).rejects.toMatchObject({ code: 'RELAY_BAD_NAME' })
    await expect(mintAgentCredential(signer, '*', 60)).rejects.toMatchObject({ code: 'RELAY_BAD_NAME' })
    await expect(mintAgentCredential(signer, 'ci', 31 * 86_400)).rejects.toMatchObject({ code: 'RELAY_BAD_TTL' })
    await expect(mintDeviceCredential(signer, 'phone', 'device', 8 * 86_400)).rejects.toMatchObject({
      code: 'RELAY_BAD_TTL',
    })
    expect(parseTtl('12h')).toBe(43_200)
    expect(() => parseTtl('12 hours')).toThrow(expect.objectContaining({ code: 'RELAY_BAD_TTL' }))
  })
})
