// `ask-user relay init --self-hosted DIR`: the relay's server folder, the companion's signing keys,
// the root identity, this desktop's member keys and the first signed roster.
import { lstat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ensurePrivateDir, isErrnoCode, writeFileAtomic } from '../../core/private-files'
import { generateMemberIdentity, generateRootIdentity, loadRootKeys, signRoster } from '../../relay/crypto'
import { mintAdminCredential } from '../../relay/nats/credentials'
import { initSelfHosted } from '../../relay/nats/init'
import { saveRelayKeys } from '../../relay/nats/keys-file'
import { parseServerConfigOptions, type ServerConfigOptions } from '../../relay/nats/server-config'
import { checkRelayUrl } from '../../relay/nats/server-version'
import { recordAccountPush } from '../../relay/home/account-push'
import { appOrigin, checkAppUrl, checkWebsocketUrl, defaultAppUrl } from './app-urls'
import { RelayCliError } from './errors'
import { RELAY_FILES, relayInitExists, saveRelayState } from '../../relay/home/state'

/** How long the setup credential init leaves for the first connection lives: 24 hours. */
export const SETUP_CREDENTIAL_TTL_SECONDS = 86_400

/** What {@link initRelay} needs; `now` (ms) is injectable for tests. */
export interface InitRelayOptions {
  home: string
  dir: string
  server: ServerConfigOptions
  /** The URL agents will connect to; checked here, stored in the settings. */
  url?: string
  /** Where the phone app is served (default: the project's Pages site); its origin joins allowed_origins. */
  appUrl?: string
  desktopName?: string
  now?: () => number
}

/**
 * Sets up a self-hosted relay and returns the text to print ONCE on stdout (recovery sheet, root
 * recovery code, the steps to run the server). Secrets go only to 0600 files in `home` (0700); `dir`
 * gets the server's public config. Refuses with `RELAY_ALREADY_INITIALIZED` before writing anything
 * when the home or `dir` already holds a relay.
 */
export async function initRelay(options: InitRelayOptions): Promise<string> {
  if (options.url !== undefined) checkRelayUrl(options.url)
  const appUrl = checkAppUrl(options.appUrl ?? defaultAppUrl())
  const origins = [...new Set([...(options.server.allowedOrigins ?? []), appOrigin(appUrl)])]
  const server: ServerConfigOptions = { ...options.server, allowedOrigins: origins }
  const websocketUrl = websocketUrlOf(parseServerConfigOptions(server), options.url)
  if ((await relayInitExists(options.home)) || (await exists(join(options.dir, 'nats-server.conf')))) {
    throw new RelayCliError(
      'RELAY_ALREADY_INITIALIZED',
      'A relay is already set up in the companion home or that folder; keep using it (ask-user relay add-agent), or move the relay-*.json files out of the home and pick an empty folder to start over.',
    )
  }
  const init = await initSelfHosted(options.dir, server)
  await ensurePrivateDir(options.home)
  await saveRelayKeys(options.home, init.companionKeys)
  // The server's config carries this release's account JWT with no revocation: no renewal need push it.
  await recordAccountPush(options.home, {})
  // The account seed itself stays on the printed sheet; the first connection uses this and deletes it.
  await writeFileAtomic(
    join(options.home, RELAY_FILES.setup),
    await mintAdminCredential(init.accountSeed, SETUP_CREDENTIAL_TTL_SECONDS, options.now),
  )
  const root = await generateRootIdentity()
  const desktop = await generateMemberIdentity(options.desktopName ?? defaultDesktopName(), 'desktop')
  const roster = await signRoster(await loadRootKeys(root.secret), {
    version: 1,
    members: [desktop.member],
    now: (options.now ?? Date.now)(),
  })
  await saveRelayState(options.home, {
    root: root.secret,
    desktop: desktop.secret,
    roster,
    settings: {
      v: 1,
      rootPublicKey: root.publicKey,
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(websocketUrl === undefined ? {} : { websocketUrl }),
      appUrl,
    },
  })
  return [
    'KEEP THE FOLLOWING OFFLINE: print or write it down, store it away from this computer, and do not paste it anywhere.',
    'It is shown this once and is not saved on disk.',
    '',
    init.recoveryText.trimEnd(),
    `root recovery code: ${root.recoveryCode}`,
    '',
    init.steps.trimEnd(),
    '',
    `The phone app: ${appUrl} (its origin is in allowed_origins; change it with \`ask-user relay app-url URL\`).`,
    websocketUrl === undefined
      ? 'No WebSocket URL for the phone is known (the server listens on every interface and no --url names the host): set it with `ask-user relay app-url --websocket-url wss://HOST:PORT`.'
      : `The phone reaches the relay at ${websocketUrl}.`,
    '',
  ].join('\n')
}

/**
 * The relay's WebSocket URL for browsers, from what nats-server.conf gets: `ws://127.0.0.1:<port>` on
 * loopback, else `wss://<host>:<port>` with the host named by --host, or by --url when the server listens
 * on every interface. Undefined when no host name is known.
 */
function websocketUrlOf(
  server: ReturnType<typeof parseServerConfigOptions>,
  url: string | undefined,
): string | undefined {
  const port = server.websocketPort
  if (server.loopbackTest) return `ws://127.0.0.1:${port}`
  const listen = server.host
  const host = listen === '0.0.0.0' || listen === '::' ? hostOf(url) : listen
  return host === undefined ? undefined : checkWebsocketUrl(`wss://${host.includes(':') ? `[${host}]` : host}:${port}`)
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  try {
    const host = new URL(url).hostname
    return host === '' ? undefined : host.replace(/^\[(.*)\]$/, '$1')
  } catch {
    return undefined
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (error) {
    return !isErrnoCode(error, 'ENOENT')
  }
}

/** This machine's name as a roster name (1–100 characters), or "desktop". */
function defaultDesktopName(): string {
  const name = hostname().trim().slice(0, 100)
  return name === '' ? 'desktop' : name
}
