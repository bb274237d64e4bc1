// What the companion does with its relay at every start (and `ask-user relay renew` on demand). On the
// desktop that holds the root key: re-sign the roster (version + 1, 60 more days), publish it, and renew
// every paired device's credential that is due. On a paired device: connect, take a newer roster and
// the credential the desktop renewed for it. Nothing here needs the windows or the core.
import { rosterRenewal, verifyRosterSignature, type Roster } from '../crypto'
import { pushAccountIfChanged } from '../home/account-push'
import { syncDeskRecords } from '../home/desk-records-sync'
import { restoreDevicePasswords } from '../home/restore-device-passwords'
import { pushSectionUpdate } from '../home/push-roster'
import { CLI_SERVER_CHECKS, openDesktopLink } from '../home/desktop-link'
import { publishRosterChange } from '../home/roster-change'
import { describeRelayError } from '../home/errors'
import {
  loadDeviceCreds,
  loadRelayState,
  loadRenewals,
  loadRosterAndSettings,
  relayRole,
  RenewalsSchema,
  RENEWALS_FILE,
  saveJson,
} from '../home/state'
import type { CheckServerOptions } from '../nats/server-version'
import { connectDevice } from './device-connect'
import { renewDeviceCredentials } from './device-credentials'

const DAY_MS = 86_400_000
/** A device warns when its credential has less than this left and no renewal came. */
export const DEVICE_CREDENTIAL_WARN_BEFORE_MS = 2 * DAY_MS

/** What {@link renewRelayAtStart} did. `problem` is set when the relay could not be reached or refused. */
export type RelayStartResult =
  | { role: 'none' }
  | {
      role: 'desktop'
      /** The roster version now stored (re-signed and published at this start, unless the relay could not be reached or refused). */
      rosterVersion: number
      /** ms since the epoch. */
      rosterExpiresAt: number
      /** Whether the relay has it now; agents and devices read the relay's copy. */
      published: boolean
      /** Names of the devices whose credential was renewed. */
      devicesRenewed: string[]
      /** Whether the account JWT (the roles' rights) was re-signed and pushed because the templates changed. */
      accountUpdated: boolean
      warnings: string[]
      problem?: string
    }
  | {
      role: 'device'
      rosterVersion: number
      credentialRenewed: boolean
      /** ms since the epoch. */
      credentialExpiresAt: number
      warnings: string[]
      problem?: string
    }

/** The options of {@link renewRelayAtStart}; `now` and `server` are for tests and the CLI. */
export interface RelayStartOptions {
  now?: () => number
  server?: CheckServerOptions
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

/**
 * Renews what the relay state in `home` needs at a companion start. Never throws for the relay being
 * unreachable or refusing: that is `problem`, with a warning when something will lapse within its
 * warning window (the roster 7 days, a device credential 2 days). Throws relay/home's codes
 * (`RELAY_BAD_STATE`, `RELAY_NOT_INITIALIZED`) and `ROSTER_SIGNATURE` when the home's own files are damaged.
 */
export async function renewRelayAtStart(home: string, options: RelayStartOptions = {}): Promise<RelayStartResult> {
  const role = await relayRole(home)
  if (role === 'desktop') return renewOnDesktop(home, options)
  if (role === 'device') return renewOnDevice(home, options)
  return { role: 'none' }
}

async function renewOnDesktop(home: string, options: RelayStartOptions): Promise<RelayStartResult> {
  const now = options.now ?? Date.now
  const state = await loadRelayState(home)
  let link
  try {
    link = await openDesktopLink(home, now, options.server ?? CLI_SERVER_CHECKS)
  } catch (error) {
    // Offline nothing is signed. A roster no one can read renews nothing, and one signed here would put
    // this desk's copy a version ahead of the relay's: the next connection would then publish it over a
    // change another desktop made meanwhile (a removed device back in the roster). The next start or
    // command that reaches the relay renews it.
    const previous = await verifyRosterSignature(
      state.roster.bytes,
      state.roster.signature,
      state.settings.rootPublicKey,
    )
    const result = {
      rosterVersion: previous.version,
      rosterExpiresAt: previous.expiresAt,
      published: false,
      devicesRenewed: [],
      accountUpdated: false,
    }
    return { role: 'desktop', ...result, warnings: rosterWarnings(previous, now()), problem: describeRelayError(error) }
  }
  try {
    // Signed on top of the roster the link settled on (the relay's, when it is newer), published, then
    // stored; signed again on top of another desktop's change published meanwhile (roster-change.ts).
    let next
    try {
      next = await publishRosterChange(link, home, now, async (current) => {
        // The push section is rebuilt with it (relay/push); a failure there never stops the renewal.
        const push = await pushSectionUpdate(home, link.nc, current).catch(() => undefined)
        return push ? { push: push.push } : {}
      })
    } catch (error) {
      // Nothing stored: every try met a newer roster published by another desktop, or the relay failed.
      const previous = await verifyRosterSignature(
        link.roster.bytes,
        link.roster.signature,
        state.settings.rootPublicKey,
      )
      const unchanged = {
        rosterVersion: previous.version,
        rosterExpiresAt: previous.expiresAt,
        published: false,
        devicesRenewed: [],
        accountUpdated: false,
      }
      return {
        role: 'desktop',
        ...unchanged,
        warnings: rosterWarnings(previous, now()),
        problem: describeRelayError(error),
      }
    }
    // What the other desktops paired and revoked: their devices are renewed here too, their revocations pushed.
    let recordsProblem: string | undefined
    await syncDeskRecords(link, home, next.roster).catch((error: unknown) => {
      recordsProblem = describeRelayError(error)
    })
    const renewals = await loadRenewals(home)
    let accountUpdated = false
    let accountProblem: string | undefined
    try {
      // A relay made by an older release keeps its roles' old rights until the account JWT is pushed again.
      accountUpdated = await pushAccountIfChanged(home, link.url, link.keys, renewals.revoked ?? {}, {
        server: options.server ?? CLI_SERVER_CHECKS,
      })
    } catch (error) {
      accountProblem = describeRelayError(error)
    }
    // The phones' password records the relay lost (its storage reset) are written again as they were
    // (after the account push: a relay made by an older release lets a desktop read them only from then on).
    await restoreDevicePasswords(home, link, next.roster).catch((error: unknown) => {
      recordsProblem ??= `password records: ${describeRelayError(error)}`
    })
    const result = {
      role: 'desktop' as const,
      rosterVersion: next.roster.version,
      rosterExpiresAt: next.roster.expiresAt,
      published: true,
      accountUpdated,
      warnings: [] as string[],
      ...((accountProblem ?? recordsProblem) !== undefined ? { problem: (accountProblem ?? recordsProblem)! } : {}),
    }
    try {
      const renewed = await renewDeviceCredentials(link, next.roster, renewals, now)
      await saveJson(home, RENEWALS_FILE, RenewalsSchema, renewed.renewals)
      if (renewed.renewed.length > 0) await syncDeskRecords(link, home, next.roster)
      return { ...result, devicesRenewed: renewed.renewed.map((member) => member.name) }
    } catch (error) {
      return { ...result, devicesRenewed: [], problem: describeRelayError(error) }
    }
  } finally {
    await link.nc.close()
  }
}

// Agents and devices hold the relay's copy, at best the roster before this start's renewal.
function rosterWarnings(relayCopy: Roster, now: number): string[] {
  const state = rosterRenewal(relayCopy, now)
  if (state === 'fresh') return []
  const when = state === 'expired' ? `expired on ${day(relayCopy.expiresAt)}` : `expires on ${day(relayCopy.expiresAt)}`
  return [
    `The relay's roster ${when} and this desktop could not publish its renewal; agents refuse every answer once it has expired. Check that the relay runs, then run \`ask-user relay renew\`.`,
  ]
}

async function renewOnDevice(home: string, options: RelayStartOptions): Promise<RelayStartResult> {
  const now = options.now ?? Date.now
  let connection
  try {
    connection = await connectDevice(home, { now, server: options.server ?? CLI_SERVER_CHECKS })
  } catch (error) {
    const creds = await loadDeviceCreds(home)
    const stored = await loadRosterAndSettings(home)
    const roster = await verifyRosterSignature(
      stored.roster.bytes,
      stored.roster.signature,
      stored.settings.rootPublicKey,
    )
    const expiresAt = creds.expiresAt * 1000
    const warnings =
      expiresAt - now() < DEVICE_CREDENTIAL_WARN_BEFORE_MS
        ? [
            expiresAt <= now()
              ? `This device's relay credential expired on ${day(expiresAt)}; remove it on the first desktop and pair it again.`
              : `This device's relay credential expires on ${day(expiresAt)}; start the first desktop so it renews it, then connect again.`,
          ]
        : []
    return {
      role: 'device',
      rosterVersion: roster.version,
      credentialRenewed: false,
      credentialExpiresAt: expiresAt,
      warnings,
      problem: describeRelayError(error),
    }
  }
  await connection.nc.close()
  const expiresAt = connection.credentialExpiresAt * 1000
  const warnings = [...connection.warnings]
  if (expiresAt - now() < DEVICE_CREDENTIAL_WARN_BEFORE_MS) {
    warnings.push(
      `This device's relay credential expires on ${day(expiresAt)} and no renewal has come; start the first desktop so it renews it.`,
    )
  }
  return {
    role: 'device',
    rosterVersion: connection.roster.version,
    credentialRenewed: connection.credentialRenewed,
    credentialExpiresAt: expiresAt,
    warnings,
  }
}
