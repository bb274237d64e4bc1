import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { initSelfHosted } from '../../../relay/nats/init'
import { loadRelayKeys, RELAY_KEYS_FILE, saveRelayKeys } from '../../../relay/nats/keys-file'
import { NATS_SERVER_BIN, natsServerSkipReason } from '../../helpers/nats-server'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-conf-'))
})
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

describe('initSelfHosted options', () => {
  it('refuses a network-facing relay without TLS, unsafe origins and unsafe paths, before writing anything', async () => {
    await expect(initSelfHosted(join(root, 'a'), { allowedOrigins: ['https://inbox.example'] })).rejects.toMatchObject({
      code: 'RELAY_BAD_OPTIONS',
    })
    await expect(
      initSelfHosted(join(root, 'b'), { loopbackTest: true, allowedOrigins: ['http://inbox.example'] }),
    ).rejects.toMatchObject({ code: 'RELAY_BAD_OPTIONS' })
    await expect(
      initSelfHosted(join(root, 'c"x'), { loopbackTest: true, allowedOrigins: ['https://inbox.example'] }),
    ).rejects.toMatchObject({ code: 'RELAY_UNSAFE_PATH' })
    await expect(stat(join(root, 'a'))).rejects.toThrow()
  })
})

describe('the companion keys file', () => {
  it('round-trips at 0600 and a damaged file is RELAY_BAD_KEYS_FILE without echoing it', async () => {
    const init = await initSelfHosted(join(root, 'k'), {
      loopbackTest: true,
      allowedOrigins: ['https://inbox.example'],
    })
    const home = join(root, 'home')
    await saveRelayKeys(home, init.companionKeys)
    expect((await stat(join(home, RELAY_KEYS_FILE))).mode & 0o777).toBe(0o600)
    expect(await loadRelayKeys(home)).toEqual(init.companionKeys)
    await writeFile(join(home, RELAY_KEYS_FILE), '{"v":1,"secret":"SOLEAKED"}')
    const error = await loadRelayKeys(home).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'RELAY_BAD_KEYS_FILE' })
    expect(String((error as Error).message)).not.toContain('SOLEAKED')
  })
})

const skip =
  natsServerSkipReason() ?? (spawnSync('openssl', ['version']).status === 0 ? undefined : 'openssl is missing')
if (skip) console.log(`skipping the TLS config check: ${skip}`)

describe.skipIf(skip)('the network-facing config', () => {
  it('is accepted by nats-server 2.9.10 (TLS on both listeners, allowed_origins, compression off)', async () => {
    const cert = join(root, 'cert.pem')
    const key = join(root, 'key.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=relay.test',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    )
    const init = await initSelfHosted(join(root, 'tls'), {
      allowedOrigins: ['https://inbox.example'],
      tls: { certFile: cert, keyFile: key },
      clientPort: 14222,
      websocketPort: 14443,
    })
    const check = spawnSync(NATS_SERVER_BIN, ['-t', '-c', init.configPath], { encoding: 'utf8' })
    expect(`${check.stdout}${check.stderr}`).not.toMatch(/error/i)
    expect(check.status).toBe(0)
  })
})
