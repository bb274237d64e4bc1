// A paired device's connection to the relay (`relay join`'s state): it connects with its stored
// credential, takes a newer root-signed roster when the relay has one (an older one is refused), and
// picks up the credential the desktop renewed for it, so it never needs the desktop to be online.
import type { NatsConnection } from '@nats-io/transport-node'
import { loadMemberKeys, verifyRoster, verifyRosterSignature, type Roster } from '../crypto'
import { parseRosterRecord } from '../crypto'
import { describeRelayError, RelayHomeError } from '../home/errors'
import {
  DEVICE_FILES,
  DeviceCredsSchema,
  loadDeviceCreds,
  loadOwnMember,
  loadRosterAndSettings,
  saveJson,
  saveRoster,
} from '../home/state'
import type { CheckServerOptions } from '../nats/server-version'
import { BUCKETS } from '../nats/templates'
import { connectRelay, getEntry } from '../pairing'
import { openDeviceCredential } from './credential-envelope'
import { credentialKey } from './device-credentials'
import { RelayRenewalError } from './errors'

/** What a device connection found, for the caller to show. `warnings` say what to do; none is fatal. */
export interface DeviceConnection {
  nc: NatsConnection
  roster: Roster
  credentialRenewed: boolean
  /** Seconds since the epoch. */
  credentialExpiresAt: number
  warnings: string[]
}

/**
 * Connects the device whose relay state is in `home`. Throws `RELAY_CREDENTIAL_EXPIRED` when the relay
 * refuses a credential past its expiry (pair again), `RELAY_CREDENTIAL_REFUSED` when it refuses one that
 * has not expired (the device was removed), `RELAY_UNREACHABLE` for any other failed connection,
 * and relay/home's codes for missing or damaged files. A roster or credential refusal is a warning: the
 * device keeps what it had.
 */
export async function connectDevice(
  home: string,
  options: { now?: () => number; server?: CheckServerOptions } = {},
): Promise<DeviceConnection> {
  const now = options.now ?? Date.now
  const keys = await loadMemberKeys(await loadOwnMember(home, 'device'))
  const creds = await loadDeviceCreds(home)
  const { roster: storedRoster, settings } = await loadRosterAndSettings(home)
  if (settings.url === undefined)
    throw new RelayHomeError('RELAY_NO_URL', 'This device knows no relay URL; join again with `ask-user relay join`.')
  let roster = await verifyRosterSignature(storedRoster.bytes, storedRoster.signature, settings.rootPublicKey)
  let nc: NatsConnection
  try {
    nc = await connectRelay(settings.url, creds.creds, creds.natsName, options.server)
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code?.toString().startsWith('RELAY_')) throw error
    if (!/authorization violation|expired/i.test(String(error))) {
      throw new RelayRenewalError(
        'RELAY_UNREACHABLE',
        `Could not reach the relay at ${settings.url}; check that it runs and this machine can reach it.`,
        { cause: error },
      )
    }
    if (creds.expiresAt * 1000 <= now()) {
      throw new RelayRenewalError(
        'RELAY_CREDENTIAL_EXPIRED',
        "This device's relay credential expired before the desktop renewed it; pair it again (`ask-user relay remove` this device on the desktop, then `ask-user relay pair` and `ask-user relay join`).",
        { cause: error },
      )
    }
    throw new RelayRenewalError(
      'RELAY_CREDENTIAL_REFUSED',
      "The relay refused this device's credential: the device was removed on the desktop (or the relay was set up again). Pair it again with `ask-user relay pair` and `ask-user relay join` if it should answer.",
      { cause: error },
    )
  }
  const warnings: string[] = []
  try {
    const published = await getEntry(nc, BUCKETS.roster, 'current')
    const signed = published === undefined ? undefined : parseRosterRecord(published.value)
    if (signed !== undefined) {
      try {
        const fresh = await verifyRoster(signed.bytes, signed.signature, settings.rootPublicKey, {
          highestSeenVersion: roster.version,
          now: now(),
        })
        if (fresh.version > roster.version) await saveRoster(home, signed)
        roster = fresh
      } catch (error) {
        warnings.push(
          `The relay's roster was refused (${describeRelayError(error)}); this device keeps roster version ${roster.version}.`,
        )
      }
    }
    let credentialRenewed = false
    let credentialExpiresAt = creds.expiresAt
    const renewal = await getEntry(nc, BUCKETS.roster, credentialKey(creds.natsName))
    if (renewal !== undefined) {
      try {
        const opened = await openDeviceCredential(keys, renewal.value, {
          roster,
          currentCreds: creds.creds,
          currentExpiresAt: creds.expiresAt,
        })
        if (opened !== undefined) {
          await saveJson(home, DEVICE_FILES.deviceCreds, DeviceCredsSchema, {
            ...creds,
            creds: opened.creds,
            expiresAt: opened.expiresAt,
          })
          credentialRenewed = true
          credentialExpiresAt = opened.expiresAt
        }
      } catch (error) {
        warnings.push(
          `The renewed relay credential was refused (${describeRelayError(error)}); this device keeps the one it has.`,
        )
      }
    }
    return { nc, roster, credentialRenewed, credentialExpiresAt, warnings }
  } catch (error) {
    await nc.close()
    throw error
  }
}
