import { lstat, mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { RELAY_FILES } from '../../../relay/home/state'
import { rootFromRecoveryCode } from '../../../relay/crypto'
import { memoryIo } from './memory-io'

const mode = async (path: string): Promise<number> => (await lstat(path)).mode & 0o777

describe('ask-user relay init --self-hosted DIR', () => {
  let root: string
  let home: string
  let dir: string
  const initArgs = (): string[] => [
    'relay',
    'init',
    '--self-hosted',
    dir,
    '--origin',
    'https://inbox.example',
    '--url',
    'nats://127.0.0.1:4222',
    '--loopback',
  ]

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-cli-init-'))
    home = join(root, 'home')
    dir = join(root, 'relay')
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes the server folder and the 0600 home files, and prints the secrets once on stdout only', async () => {
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(initArgs(), io)).toBe(0)
    expect(await mode(dir)).toBe(0o700)
    expect(await mode(home)).toBe(0o700)
    expect(await mode(join(dir, 'nats-server.conf'))).toBe(0o600)
    for (const name of Object.values(RELAY_FILES)) expect(await mode(join(home, name))).toBe(0o600)

    const out = io.out()
    expect(out).toMatch(/KEEP THE FOLLOWING OFFLINE/)
    expect(out).toMatch(/operator seed: SO[A-Z2-7]{56}/)
    expect(out).toMatch(/account seed: SA[A-Z2-7]{56}/)
    expect(out).toContain(await readFile(join(dir, 'RUN.txt'), 'utf8').then((text) => text.trimEnd()))
    expect(io.err()).toBe('')

    // The printed recovery code restores the very root key the roster is pinned to.
    const code = /root recovery code: (.+)/.exec(out)?.[1] ?? ''
    const restored = await rootFromRecoveryCode(code)
    const settings = JSON.parse(await readFile(join(home, RELAY_FILES.settings), 'utf8'))
    expect(settings).toEqual({
      v: 1,
      url: 'nats://127.0.0.1:4222',
      rootPublicKey: restored.keys.publicKey,
      websocketUrl: 'ws://127.0.0.1:443',
      appUrl: 'https://ask-user-companion.github.io/ask-user-companion/',
    })

    // No seed printed once lands in a file: not in the server folder, not in the home.
    const seeds = [...out.matchAll(/seed: (S[A-Z2-7]{57})/g)].map((m) => m[1]!)
    expect(seeds).toHaveLength(3)
    for (const folder of [dir, home]) {
      for (const name of await readdir(folder, { recursive: true })) {
        const path = join(folder, name)
        if ((await lstat(path)).isFile())
          for (const seed of seeds) expect(await readFile(path, 'utf8')).not.toContain(seed)
      }
    }
  })

  it('refuses a second init with RELAY_ALREADY_INITIALIZED and changes nothing', async () => {
    expect(await main(initArgs(), memoryIo({ ASK_USER_HOME: home }))).toBe(0)
    const before = await readFile(join(home, RELAY_FILES.root), 'utf8')
    const again = memoryIo({ ASK_USER_HOME: home })
    expect(await main([...initArgs().slice(0, 3), join(root, 'other'), ...initArgs().slice(4)], again)).toBe(1)
    expect(again.err()).toMatch(/^Error: RELAY_ALREADY_INITIALIZED: .*add-agent/)
    expect(again.out()).toBe('')
    expect(await readFile(join(home, RELAY_FILES.root), 'utf8')).toBe(before)
    await expect(lstat(join(root, 'other'))).rejects.toThrow(/ENOENT/)
  })

  it('refuses a folder that already holds a relay config, from a fresh home', async () => {
    expect(await main(initArgs(), memoryIo({ ASK_USER_HOME: home }))).toBe(0)
    const io = memoryIo({ ASK_USER_HOME: join(root, 'home2') })
    expect(await main(initArgs(), io)).toBe(1)
    expect(io.err()).toMatch(/RELAY_ALREADY_INITIALIZED/)
  })

  it('refuses a network relay without TLS and a URL with credentials, before writing anything', async () => {
    const noTls = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'init', '--self-hosted', dir, '--origin', 'https://inbox.example'], noTls)).toBe(1)
    expect(noTls.err()).toMatch(/RELAY_BAD_OPTIONS: .*tls/)
    const withPassword = memoryIo({ ASK_USER_HOME: home })
    expect(
      await main([...initArgs().slice(0, 6), '--url', 'tls://u:secret@relay.example:4222', '--loopback'], withPassword),
    ).toBe(1)
    expect(withPassword.err()).toMatch(/RELAY_URL_HAS_CREDENTIALS/)
    expect(withPassword.err()).not.toContain('secret')
    await expect(lstat(dir)).rejects.toThrow(/ENOENT/)
    await expect(lstat(home)).rejects.toThrow(/ENOENT/)
  })

  it('needs --self-hosted DIR (exit 2)', async () => {
    const io = memoryIo({ ASK_USER_HOME: home })
    expect(await main(['relay', 'init'], io)).toBe(2)
    expect(io.err()).toMatch(/--self-hosted DIR/)
  })
})
