import { z } from 'zod'
import { RelayNatsError } from './errors'

/**
 * Which servers and URLs the relay bridge talks to (RELAY.md §3.3, §4.7). Non-loopback servers must be
 * at or above the advisory floors; Debian's 2.9.10 (CI) is accepted only on loopback and only when the
 * caller passes `allowOutdatedLoopback`, which the CLI never sets.
 */

/** Lowest version per release line with no known advisory (CVE-2026-27571, secnotes 2026-07/-15/-16/-18). */
export const ADVISORY_FLOORS: readonly { line: string; floor: string }[] = Object.freeze([
  { line: '2.11', floor: '2.11.15' },
  { line: '2.12', floor: '2.12.6' },
])
/** Below this nothing in the design works (direct get, extended consumer create). */
export const MINIMUM_VERSION = '2.9.0'
/** Per-key TTL exists from here on; older servers silently ignore it. */
export const PER_KEY_TTL_VERSION = '2.11.0'

/** The part of the server's INFO the check reads (parsed, since it comes from the wire). */
export const ServerInfoSchema = z
  .object({ version: z.string().regex(/^\d+\.\d+\.\d+/), server_id: z.string().optional() })
  .passthrough()

type Triple = [number, number, number]
function parseVersion(v: string): Triple {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v)
  if (!m)
    throw new RelayNatsError(
      'RELAY_BAD_SERVER_INFO',
      `The relay server sent version "${v.slice(0, 40)}"; check that the URL points at a nats-server.`,
    )
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}
function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}

// A dotted-quad literal (each part 0–255). Written here rather than node:net's isIP so that the phone,
// which checks its relay URL in a browser, shares this check.
const IPV4_LITERAL = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/** True for a literal loopback address (127.0.0.0/8, ::1); host names are not trusted to be loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '')
  if (IPV4_LITERAL.test(host)) return host.startsWith('127.')
  return host === '::1'
}

/**
 * Checks a relay URL before connecting: refuses user info or a query (credentials in URLs), schemes
 * other than nats/tls/ws/wss, and plaintext (nats:, ws:) to anything but a loopback address.
 * Returns whether it is loopback.
 */
export function checkRelayUrl(raw: string): { loopback: boolean; url: URL } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new RelayNatsError(
      'RELAY_BAD_URL',
      'The relay URL is not a URL; write it like tls://relay.example:4222 or wss://relay.example.',
    )
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new RelayNatsError(
      'RELAY_URL_HAS_CREDENTIALS',
      'The relay URL carries a user, password, query or fragment; remove it and pass credentials through the creds file.',
    )
  }
  if (!['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol)) {
    throw new RelayNatsError(
      'RELAY_BAD_URL',
      `The relay URL scheme ${url.protocol} is not supported; use tls:// or wss://.`,
    )
  }
  const loopback = isLoopbackHost(url.hostname)
  if (!loopback && (url.protocol === 'nats:' || url.protocol === 'ws:')) {
    throw new RelayNatsError(
      'RELAY_URL_NOT_TLS',
      'A relay that is not on this machine must use TLS; use tls:// or wss:// in the relay URL.',
    )
  }
  return { loopback, url }
}

/** Options of {@link checkServer}; `allowOutdatedLoopback` is for tests against Debian's 2.9.10 only. */
export interface CheckServerOptions {
  allowOutdatedLoopback?: boolean
}

/** What the bridge may use on this server. */
export interface ServerFeatures {
  version: string
  perKeyTtl: boolean
}

/**
 * Checks the server's INFO (read at connect) for the relay at `rawUrl`. Throws `RELAY_URL_*` for the
 * URL, `RELAY_SERVER_TOO_OLD` below {@link MINIMUM_VERSION}, and `RELAY_SERVER_ADVISORY` below the
 * advisory floors unless the server is loopback and `allowOutdatedLoopback` is set.
 */
export function checkServer(info: unknown, rawUrl: string, options: CheckServerOptions = {}): ServerFeatures {
  const { loopback } = checkRelayUrl(rawUrl)
  const parsed = ServerInfoSchema.safeParse(info)
  if (!parsed.success)
    throw new RelayNatsError(
      'RELAY_BAD_SERVER_INFO',
      'The relay server did not say its version; check that the URL points at a nats-server.',
    )
  const version = parseVersion(parsed.data.version)
  if (compare(version, parseVersion(MINIMUM_VERSION)) < 0) {
    throw new RelayNatsError(
      'RELAY_SERVER_TOO_OLD',
      `The relay runs nats-server ${parsed.data.version}; upgrade it to ${ADVISORY_FLOORS.at(-1)?.floor} or newer.`,
    )
  }
  const line = ADVISORY_FLOORS.find((f) => f.line === `${version[0]}.${version[1]}`)
  const newest = ADVISORY_FLOORS[ADVISORY_FLOORS.length - 1] as { line: string; floor: string }
  const belowFloor = line
    ? compare(version, parseVersion(line.floor)) < 0
    : compare(version, parseVersion(newest.floor)) < 0
  if (belowFloor && !(loopback && options.allowOutdatedLoopback === true)) {
    throw new RelayNatsError(
      'RELAY_SERVER_ADVISORY',
      `The relay runs nats-server ${parsed.data.version}, which has known security advisories; upgrade it to ${line?.floor ?? newest.floor} or newer.`,
    )
  }
  return { version: parsed.data.version, perKeyTtl: compare(version, parseVersion(PER_KEY_TTL_VERSION)) >= 0 }
}
