import { connect, credsAuthenticator } from '@nats-io/transport-node'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintAgentCredential } from '../../../relay/nats/credentials'
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
    for (const secret of [init.accountSeed, init.companionKeys.operatorSigningSeed, ...Object.values(init.companionKeys.roleSigningSeeds)]) {
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
    const nc = await connect({ servers: `127.0.0.1:${port}`, authenticator: credsAuthenticator(new TextEncoder().encode(cred.creds)), inboxPrefix: '_INBOX.agent1' })
    expect(nc.info?.version).toBe('2.9.10')
    await nc.close()
  })
})
