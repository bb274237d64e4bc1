// Where the phone app comes from: `relay init` records the app and WebSocket URLs and allows the app's
// origin on the relay's WebSocket listener; `relay app-url` reads and changes them on the first desktop.
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'
import { defaultAppUrl } from '../../../cli/relay/app-urls'
import { DEVICE_FILES, RELAY_FILES } from '../../../relay/home/state'
import { memoryIo } from './memory-io'

const PAGES = 'https://ask-user-companion.github.io/ask-user-companion/'

describe('relay init: the phone app and WebSocket URLs', () => {
  let root: string
  let home: string
  let dir: string
  const init = (...extra: string[]) => {
    const io = memoryIo({ ASK_USER_HOME: home })
    return main(['relay', 'init', '--self-hosted', dir, ...extra], io).then((code) => ({ code, io }))
  }
  const settings = async () => JSON.parse(await readFile(join(home, RELAY_FILES.settings), 'utf8'))
  const conf = () => readFile(join(dir, 'nats-server.conf'), 'utf8')

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-app-url-'))
    home = join(root, 'home')
    dir = join(root, 'relay')
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('defaults the app URL to the Pages site of package.json, allows its origin and keeps --origin', async () => {
    const { code, io } = await init('--origin', 'https://inbox.example', '--ws-port', '8443', '--loopback')
    expect(io.err()).toBe('')
    expect(code).toBe(0)
    expect(await settings()).toMatchObject({ appUrl: PAGES, websocketUrl: 'ws://127.0.0.1:8443' })
    expect(await conf()).toContain('allowed_origins: ["https://inbox.example", "https://ask-user-companion.github.io"]')
    expect(io.out()).toContain(`The phone app: ${PAGES}`)
  })

  it('takes --app-url (needing no --origin) and derives wss://host:port from --host and --ws-port', async () => {
    const cert = join(root, 'cert.pem')
    const { code, io } = await init(
      '--app-url',
      'https://phone.example.org/app',
      '--host',
      'relay.example.org',
      '--ws-port',
      '8443',
      '--tls-cert',
      cert,
      '--tls-key',
      cert,
    )
    expect(io.err()).toBe('')
    expect(code).toBe(0)
    expect(await settings()).toMatchObject({
      appUrl: 'https://phone.example.org/app/',
      websocketUrl: 'wss://relay.example.org:8443',
    })
    expect(await conf()).toContain('allowed_origins: ["https://phone.example.org"]')
  })

  it('takes the WebSocket host from --url when the server listens on every interface', async () => {
    const cert = join(root, 'cert.pem')
    const { code } = await init('--url', 'tls://relay.example.org:4222', '--tls-cert', cert, '--tls-key', cert)
    expect(code).toBe(0)
    expect((await settings()).websocketUrl).toBe('wss://relay.example.org')
  })

  it.each([
    ['http://phone.example.org/', /must use https:\/\//],
    ['https://user:pw@phone.example.org/', /user name or password/],
    ['https://phone.example.org/?x=1', /query/],
    ['https://phone.example.org/#x', /fragment/],
    ['ftp://phone.example.org/', /must use https:\/\//],
    ['not a url', /is not a URL/],
  ])('refuses the app URL %s with RELAY_BAD_APP_URL and writes nothing', async (url, why) => {
    const { code, io } = await init('--app-url', url, '--loopback')
    expect(code).toBe(1)
    expect(io.err()).toMatch(new RegExp(`^Error: RELAY_BAD_APP_URL: The phone app URL .*${why.source}`))
    await expect(lstat(home)).rejects.toThrow(/ENOENT/)
    await expect(lstat(dir)).rejects.toThrow(/ENOENT/)
  })

  it('allows http:// for an app served on loopback', async () => {
    const { code } = await init('--app-url', 'http://127.0.0.1:5173/', '--loopback')
    expect(code).toBe(0)
    expect(await conf()).toContain('allowed_origins: ["http://127.0.0.1:5173"]')
  })

  it('derives the Pages URL from a GitHub repository, else asks for --app-url', () => {
    expect(defaultAppUrl({ repository: { url: 'git+https://github.com/Some-Owner/my.repo.git' } })).toBe(
      'https://some-owner.github.io/my.repo/',
    )
    expect(() => defaultAppUrl({ homepage: 'https://example.org/' })).toThrow(/pass --app-url URL/)
  })
})

describe('relay app-url [URL] [--websocket-url URL]', () => {
  let root: string
  let home: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-app-url-set-'))
    home = join(root, 'home')
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })
  const appUrl = async (...args: string[]) => {
    const io = memoryIo({ ASK_USER_HOME: home })
    return { code: await main(['relay', 'app-url', ...args], io), io }
  }

  it('prints the current URLs, sets them (0600) and prints the allowed_origins line to put in nats-server.conf', async () => {
    expect(
      await main(
        ['relay', 'init', '--self-hosted', join(root, 'relay'), '--loopback'],
        memoryIo({ ASK_USER_HOME: home }),
      ),
    ).toBe(0)
    const shown = await appUrl()
    expect(shown.code).toBe(0)
    expect(shown.io.out()).toBe(`app: ${PAGES}\nwebsocket: ws://127.0.0.1:443\n`)

    const set = await appUrl('https://phone.example.org/ask', '--websocket-url', 'wss://relay.example.org:8443')
    expect(set.io.err()).toBe('')
    expect(set.code).toBe(0)
    expect(set.io.out()).toContain('app: https://phone.example.org/ask/\nwebsocket: wss://relay.example.org:8443\n')
    expect(set.io.out()).toContain('  allowed_origins: ["https://phone.example.org"]\n')
    expect(set.io.out()).toMatch(/restart nats-server/)
    const path = join(home, RELAY_FILES.settings)
    expect((await lstat(path)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
      appUrl: 'https://phone.example.org/ask/',
      websocketUrl: 'wss://relay.example.org:8443',
    })
    expect((await appUrl()).io.out()).toBe(
      'app: https://phone.example.org/ask/\nwebsocket: wss://relay.example.org:8443\n',
    )
  })

  it('refuses bad URLs with their codes and changes nothing', async () => {
    expect(
      await main(
        ['relay', 'init', '--self-hosted', join(root, 'relay'), '--loopback'],
        memoryIo({ ASK_USER_HOME: home }),
      ),
    ).toBe(0)
    const before = await readFile(join(home, RELAY_FILES.settings), 'utf8')
    const bad = await appUrl('https://phone.example.org/?q=1')
    expect(bad.code).toBe(1)
    expect(bad.io.err()).toMatch(/^Error: RELAY_BAD_APP_URL: .*query/)
    for (const ws of ['ws://relay.example.org:80', 'wss://relay.example.org/path', 'https://relay.example.org']) {
      const badWs = await appUrl('--websocket-url', ws)
      expect(badWs.code).toBe(1)
      expect(badWs.io.err()).toMatch(/^Error: RELAY_BAD_WEBSOCKET_URL: /)
    }
    expect(await readFile(join(home, RELAY_FILES.settings), 'utf8')).toBe(before)
  })

  it('is refused on a paired device, and says where to run it', async () => {
    await mkdir(home, { recursive: true, mode: 0o700 })
    await writeFile(join(home, DEVICE_FILES.device), '{}', { mode: 0o600 })
    const refused = await appUrl('https://phone.example.org/')
    expect(refused.code).toBe(1)
    expect(refused.io.err()).toMatch(/^Error: RELAY_APP_URL_NEEDS_DESKTOP: This is a paired device: .*first desktop/)
  })

  it('says to run init first on a home without a relay', async () => {
    const none = await appUrl()
    expect(none.code).toBe(1)
    expect(none.io.err()).toMatch(/^Error: RELAY_NOT_INITIALIZED: /)
  })
})
