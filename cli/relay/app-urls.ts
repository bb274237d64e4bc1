// Where the phone app is served and where the relay's WebSocket listener is, as `relay init` and
// `relay app-url` accept them: checked here so a bad URL never reaches the settings or the pairing QR.
import { homepage, repository } from '../../package.json'
import { RelayCliError } from './errors'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/**
 * Checks the phone app's URL and returns it normalised (`https://host/path/`, always ending in `/` so
 * `<appUrl>#pair=…` opens the app's index). https only; http only on 127.0.0.1/localhost (a browser treats
 * those as secure); no user or password, no query, no fragment: the pairing payload goes into the
 * fragment, and a query would be sent to the host. Refuses with `RELAY_BAD_APP_URL`.
 */
export function checkAppUrl(text: string): string {
  const url = parseUrl(text)
  const refuse = (why: string): never => {
    throw new RelayCliError(
      'RELAY_BAD_APP_URL',
      `The phone app URL ${why}; give where the app is served, like https://example.org/ask-user/.`,
    )
  }
  if (url === undefined) return refuse('is not a URL')
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return refuse('must use https:// (http:// only on 127.0.0.1 or localhost)')
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must use https://')
  if (url.username !== '' || url.password !== '') return refuse('must not carry a user name or password')
  if (url.search !== '' || text.includes('?')) return refuse('must not have a query (?…)')
  if (url.hash !== '' || text.includes('#')) return refuse('must not have a fragment (#…)')
  if (/["\\$\s]/.test(url.href)) return refuse('must not contain quotes, backslashes, "$" or spaces')
  return url.pathname.endsWith('/') ? url.href : `${url.href}/`
}

/**
 * Checks the relay's WebSocket URL for browsers: `wss://host[:port]`, or `ws://` on 127.0.0.1/localhost;
 * no credentials, path, query or fragment. Returns its origin form. Refuses with `RELAY_BAD_WEBSOCKET_URL`.
 */
export function checkWebsocketUrl(text: string): string {
  const url = parseUrl(text)
  const refuse = (why: string): never => {
    throw new RelayCliError(
      'RELAY_BAD_WEBSOCKET_URL',
      `The relay's WebSocket URL ${why}; give it as wss://relay.example.org:443.`,
    )
  }
  if (url === undefined) return refuse('is not a URL')
  if (url.protocol === 'ws:' && !LOOPBACK_HOSTS.has(url.hostname))
    return refuse('must use wss:// (ws:// only on 127.0.0.1 or localhost)')
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:') return refuse('must use wss://')
  if (url.username !== '' || url.password !== '') return refuse('must not carry a user name or password')
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(text))
    return refuse('must not have a path, query or fragment')
  return url.origin
}

/** The origin browsers send for pages of `appUrl` (what the relay's `allowed_origins` must list). */
export function appOrigin(appUrl: string): string {
  return new URL(appUrl).origin
}

/**
 * The project's own Pages site, where the release workflow deploys the app: `https://<owner>.github.io/<repo>/`
 * from package.json's repository (or homepage) on github.com.
 */
export function defaultAppUrl(
  source: { homepage?: string; repository?: { url?: string } } = { homepage, repository },
): string {
  for (const candidate of [source.repository?.url, source.homepage]) {
    const match = /^(?:git\+)?https:\/\/github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(
      candidate ?? '',
    )
    if (match) return `https://${match[1]!.toLowerCase()}.github.io/${match[2]}/`
  }
  throw new RelayCliError(
    'RELAY_BAD_APP_URL',
    'This build names no GitHub repository to derive the Pages URL of the phone app from; pass --app-url URL.',
  )
}

/** The `allowed_origins` line of nats-server.conf's websocket block listing `origins`. */
export function allowedOriginsLine(origins: readonly string[]): string {
  return `  allowed_origins: [${origins.map((origin) => `"${origin}"`).join(', ')}]`
}
