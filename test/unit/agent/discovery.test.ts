import { spawnSync } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { companionHome, discoverEndpoint, statusUrl } from '../../../agent/discovery'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { failure } from '../../helpers/errors'

const homes: string[] = []
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
})
async function tempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'ask-user-disc-'))
  homes.push(home)
  return home
}

describe('companionHome', () => {
  it('uses ASK_USER_HOME, else the per-user app-data folder of each OS', () => {
    expect(companionHome({ ASK_USER_HOME: 'rel/home' }, 'linux')).toBe(resolve('rel/home'))
    expect(companionHome({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.config/ask-user-companion')
    expect(companionHome({ HOME: '/home/ann', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/ask-user-companion')
    expect(companionHome({ HOME: '/Users/ann' }, 'darwin')).toBe(
      '/Users/ann/Library/Application Support/ask-user-companion',
    )
    expect(companionHome({ APPDATA: '/appdata' }, 'win32')).toBe('/appdata\\ask-user-companion')
    expect(companionHome({ ASK_USER_HOME: '  ', HOME: '/h' }, 'linux')).toBe('/h/.config/ask-user-companion')
  })
})

describe('discoverEndpoint', () => {
  it('prefers ASK_USER_URL + ASK_USER_TOKEN over the file', async () => {
    expect(
      await discoverEndpoint({
        ASK_USER_URL: 'ws://localhost:9/v1/agent',
        ASK_USER_TOKEN: 't',
        ASK_USER_HOME: '/none',
      }),
    ).toEqual({
      url: 'ws://localhost:9/v1/agent',
      token: 't',
      source: 'env',
    })
  })

  it('refuses ASK_USER_URL without a token, or a non-ws URL', async () => {
    expect((await failure(discoverEndpoint({ ASK_USER_URL: 'ws://x/v1/agent' }))).message).toBe(
      'ASK_USER_URL is set but neither ASK_USER_TOKEN_FILE nor ASK_USER_TOKEN is; set one of them, or unset ASK_USER_URL',
    )
    expect((await failure(discoverEndpoint({ ASK_USER_URL: 'http://x/', ASK_USER_TOKEN: 't' }))).message).toBe(
      'ASK_USER_URL must be a ws:// or wss:// URL, got "http://x/"',
    )
    expect((await failure(discoverEndpoint({ ASK_USER_URL: 'nonsense', ASK_USER_TOKEN: 't' }))).code).toBe(
      'NO_PROVIDER',
    )
  })

  it('reads endpoint.json afresh on every call', async () => {
    const home = await tempHome()
    const file = join(home, 'endpoint.json')
    await writeFile(file, JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 'a', pid: 1 }), {
      mode: 0o600,
    })
    expect(await discoverEndpoint({ ASK_USER_HOME: home }, 'linux')).toEqual({
      url: 'ws://127.0.0.1:1/v1/agent',
      token: 'a',
      source: { file },
    })
    await writeFile(file, JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:2/v1/agent', token: 'b', pid: 1 }), {
      mode: 0o600,
    })
    expect(await discoverEndpoint({ ASK_USER_HOME: home }, 'linux')).toMatchObject({
      url: 'ws://127.0.0.1:2/v1/agent',
      token: 'b',
    })
  })

  it.skipIf(process.platform !== 'linux')(
    'checks the pid only from the same pid namespace: a dead one there is no companion',
    async () => {
      const home = await tempHome()
      const file = join(home, 'endpoint.json')
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!
      const ours = readlinkSync('/proc/self/ns/pid')
      await writeFile(
        file,
        JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 'a', pid: dead, pidNamespace: ours }),
        { mode: 0o600 },
      )
      const error = await failure(discoverEndpoint({ ASK_USER_HOME: home }, 'linux'))
      expect(error.code).toBe('NO_PROVIDER')
      expect(error.message).toContain(`names pid ${dead}, which has exited`)
      await writeFile(
        file,
        JSON.stringify({
          protocol: 1,
          url: 'ws://127.0.0.1:1/v1/agent',
          token: 'a',
          pid: dead,
          pidNamespace: 'pid:[1]',
        }),
        { mode: 0o600 },
      )
      expect(await discoverEndpoint({ ASK_USER_HOME: home }, 'linux')).toMatchObject({ token: 'a' })
      await writeFile(
        file,
        JSON.stringify({
          protocol: 1,
          url: 'ws://127.0.0.1:1/v1/agent',
          token: 'a',
          pid: process.pid,
          pidNamespace: ours,
        }),
        { mode: 0o600 },
      )
      expect(await discoverEndpoint({ ASK_USER_HOME: home }, 'linux')).toMatchObject({ token: 'a' })
    },
  )

  it.skipIf(process.platform === 'win32')(
    'reads the token from ASK_USER_TOKEN_FILE, refusing one that others may read',
    async () => {
      const home = await tempHome()
      const file = join(home, 'token')
      await writeFile(file, 'from-file\n', { mode: 0o600 })
      expect(
        await discoverEndpoint({ ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent', ASK_USER_TOKEN_FILE: file }, 'linux'),
      ).toEqual({ url: 'ws://127.0.0.1:9/v1/agent', token: 'from-file', source: 'env' })
      await chmod(file, 0o644)
      expect(
        (
          await failure(
            discoverEndpoint({ ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent', ASK_USER_TOKEN_FILE: file }, 'linux'),
          )
        ).message,
      ).toBe(`refusing to use ${file}: other users may read or write it (mode 644); run \`chmod 600 ${file}\``)
    },
  )

  it('refuses a corrupt discovery file with NO_PROVIDER and the start hint', async () => {
    const home = await tempHome()
    await writeFile(join(home, 'endpoint.json'), '{"url": 3}', { mode: 0o600 })
    const error = await failure(discoverEndpoint({ ASK_USER_HOME: home }, 'linux'))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toBe(
      `the discovery file ${join(home, 'endpoint.json')} is not valid; start the Ask User Companion app, or run \`ask-user serve\``,
    )
  })

  it.skipIf(process.platform === 'win32')('refuses a file group or others can write (mode 620)', async () => {
    const home = await tempHome()
    const file = join(home, 'endpoint.json')
    await writeFile(file, JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 'a', pid: 1 }))
    await chmod(file, 0o620) // after writing: the umask would mask a mode given to writeFile
    expect((await failure(discoverEndpoint({ ASK_USER_HOME: home }, 'linux'))).message).toMatch(/mode 620/)
  })
})

describe.skipIf(attackerSkipReason())('discoverEndpoint against a file another user wrote', () => {
  let attacker: Attacker
  beforeAll(() => void (attacker = createAttacker()))
  afterAll(() => attacker?.remove())

  const theirs = JSON.stringify({ protocol: 1, url: 'ws://127.0.0.1:9/v1/agent', token: 'theirs', pid: 1 })

  it('refuses an endpoint.json another user owns, mode 0600, in a 0700 home of theirs: owner before mode', async () => {
    // ASK_USER_HOME pointing at a folder they made first (e.g. in /tmp): the client must not follow it.
    const home = join(attacker.home, 'home')
    attacker.run('sh', ['-c', `mkdir -m 700 ${home} && umask 077 && cat > ${home}/endpoint.json`], { input: theirs })
    const error = await failure(discoverEndpoint({ ASK_USER_HOME: home }, 'linux'))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toContain(`belongs to uid ${attacker.uid}`)
    expect(error.message).toContain('Remove it')
  })

  it('refuses a link at endpoint.json, even to a valid file', async () => {
    const home = await tempHome()
    const real = join(home, 'real.json')
    await writeFile(real, theirs, { mode: 0o600 })
    await symlink(real, join(home, 'endpoint.json'))
    const error = await failure(discoverEndpoint({ ASK_USER_HOME: home }, 'linux'))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toContain('is a symbolic link')
  })
})

describe('statusUrl', () => {
  it('turns the agent endpoint into the status URL', () => {
    expect(statusUrl('ws://127.0.0.1:4567/v1/agent')).toBe('http://127.0.0.1:4567/v1/status')
    expect(statusUrl('wss://example.test/v1/agent?x=1')).toBe('https://example.test/v1/status')
  })
})
