// The first desktop's connection to its relay, for the commands that change the roster. The first one
// after init also makes the buckets with the setup credential init left (then deletes it), and every one
// publishes the stored, root-signed roster to `roster.current`, so agents and devices read the latest.
import type { NatsConnection } from '@nats-io/transport-node'
import { join } from 'node:path'
import { isErrnoCode, readPrivateFile, removeFile } from '../../core/private-files'
import {
  encodeRosterRecord,
  parseRosterRecord,
  verifyRosterSignature,
  type MemberSecret,
  type RootSecret,
  type SignedRoster,
} from '../crypto'
import { createBuckets } from '../nats/buckets'
import { mintDeviceCredential } from '../nats/credentials'
import { loadRelayKeys, type RelayKeys } from '../nats/keys-file'
import type { CheckServerOptions } from '../nats/server-version'
import { BUCKETS } from '../nats/templates'
import { connectRelay, getEntry, putEntry, replaceEntry } from '../pairing'
import { RelayHomeError } from './errors'
import { loadOwnMember, loadRelayState, RELAY_FILES, saveRoster, type RelaySettings } from './state'

/**
 * Server checks of the relay commands. A server on a literal loopback address (the person's own
 * `relay init --loopback` trial) may run a nats-server below the advisory floors: the advisories need
 * network reach. Any other server must be at or above them (relay/nats checkServer).
 */
export const CLI_SERVER_CHECKS: CheckServerOptions = { allowOutdatedLoopback: true }

/** How long the desktop's own credential for one command lives. */
const DESKTOP_SESSION_SECONDS = 3_600

/** An open desktop connection and the state the commands need with it. */
export interface DesktopLink {
  nc: NatsConnection
  url: string
  root: RootSecret
  roster: SignedRoster
  settings: RelaySettings
  keys: RelayKeys
  desktop: MemberSecret
  /** The revision of `roster.current` on the relay as this link last saw or wrote it (see {@link publishRoster}). */
  rosterRevision: number
}

/**
 * Connects as this desktop (a fresh 1-hour desktop credential), making the buckets first when init's
 * setup credential is still there, and publishes the stored roster (or, when the relay holds a newer
 * root-signed one, stores that instead: `roster` is the current one either way). `server` relaxes the version checks
 * only for a literal loopback address (the default). Throws `RELAY_NOT_INITIALIZED`,
 * `RELAY_NO_URL`, `RELAY_SETUP_EXPIRED`, `ROSTER_SIGNATURE` (the stored roster is damaged), a URL or
 * server refusal, or the connection's error.
 */
export async function openDesktopLink(
  home: string,
  now: () => number = Date.now,
  server: CheckServerOptions = CLI_SERVER_CHECKS,
): Promise<DesktopLink> {
  const state = await loadRelayState(home)
  const keys = await loadRelayKeys(home)
  const desktop = await loadOwnMember(home, 'desktop')
  const url = state.settings.url
  if (url === undefined)
    throw new RelayHomeError(
      'RELAY_NO_URL',
      'No relay URL is known; run `ask-user relay init` with --url, or set "url" in relay-settings.json.',
    )
  await makeBucketsOnce(home, url)
  const credential = await mintDeviceCredential(
    { accountPublicKey: keys.accountPublicKey, signingSeed: keys.roleSigningSeeds.desktop, now },
    desktop.member.id,
    'desktop',
    DESKTOP_SESSION_SECONDS,
  )
  const nc = await connectRelay(url, credential.creds, desktop.member.id, server)
  try {
    const { roster, revision } = await syncRoster(home, nc, state.roster, state.settings.rootPublicKey)
    return { nc, url, ...state, roster, keys, desktop, rosterRevision: revision }
  } catch (error) {
    await nc.close()
    throw error
  }
}

// The relay's roster wins when it is root-signed and newer than the stored one (the home was restored
// from an older backup): publishing the stored one, or signing on top of it, would bring back removed
// members and be refused as a rollback by everyone who saw the newer one. Anything that does not verify
// is the relay's doing and is overwritten by the stored roster.
async function syncRoster(
  home: string,
  nc: NatsConnection,
  stored: SignedRoster,
  rootPublicKey: string,
): Promise<{ roster: SignedRoster; revision: number }> {
  const storedVersion = (await verifyRosterSignature(stored.bytes, stored.signature, rootPublicKey)).version
  const published = await getEntry(nc, BUCKETS.roster, 'current')
  const record = published === undefined ? undefined : parseRosterRecord(published.value)
  if (record !== undefined) {
    const relayVersion = await verifyRosterSignature(record.bytes, record.signature, rootPublicKey).then(
      (roster) => roster.version,
      () => undefined,
    )
    if (relayVersion !== undefined && relayVersion > storedVersion) {
      await saveRoster(home, record)
      return { roster: record, revision: published!.revision }
    }
  }
  return { roster: stored, revision: await putEntry(nc, BUCKETS.roster, 'current', encodeRosterRecord(stored)) }
}

/**
 * Publishes `roster` at `roster.current` only if nothing else was published since this link last saw
 * it, so two changes at once (two commands, or the start's renewal beside `relay pair`) cannot drop one
 * another, such as a removal. Throws `RELAY_ROSTER_CONFLICT` when the relay's roster changed meanwhile:
 * nothing was published; the caller stores nothing and the person runs the command again.
 */
export async function publishRoster(link: DesktopLink, roster: SignedRoster): Promise<void> {
  const revision = await replaceEntry(
    link.nc,
    BUCKETS.roster,
    'current',
    encodeRosterRecord(roster),
    link.rosterRevision,
  )
  if (revision === undefined) {
    throw new RelayHomeError(
      'RELAY_ROSTER_CONFLICT',
      'Another change to the roster was published while this one was made; nothing was changed here. Run the command again.',
    )
  }
  link.rosterRevision = revision
}

async function makeBucketsOnce(home: string, url: string): Promise<void> {
  const path = join(home, RELAY_FILES.setup)
  let creds: string
  try {
    creds = await readPrivateFile(path)
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return
    throw error
  }
  let nc: NatsConnection
  try {
    nc = await connectRelay(url, creds, 'ask-user-admin', CLI_SERVER_CHECKS)
  } catch (error) {
    if (/authorization violation|expired/i.test(String(error))) {
      throw new RelayHomeError(
        'RELAY_SETUP_EXPIRED',
        'The setup credential from `relay init` has expired before the buckets were made; run `ask-user relay init` again into an empty home and folder.',
      )
    }
    throw error
  }
  try {
    await createBuckets(nc)
  } finally {
    await nc.close()
  }
  await removeFile(path)
}
