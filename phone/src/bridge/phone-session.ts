// One dial of the phone's inbox: the link to the relay with the phone's credential, its desk on the
// phone's own keys and the password record it follows. The bridge (phone-bridge.ts) dials again and again;
// this file is what one dial opens, and the checks a roster gets on the way (a roster that leaves this
// phone out ends the dial: phone-refusals.ts).
import { toBase64url } from '../../../relay/crypto/encoding'
import { loadMemberKeys } from '../../../relay/crypto/keys'
import type { Roster } from '../../../relay/crypto/schemas'
import type { DeskRefusal } from '../../../relay/exchange/desk-types'
import { isRelayExchangeError } from '../../../relay/exchange/errors'
import { RelayDesk } from '../../../relay/exchange/relay-desk'
import { RelayLink, type RelayConnect } from '../../../relay/exchange/relay-link'
import type { PhoneRecord } from '../home/phone-record'
import { PhonePasswords } from './phone-passwords'
import { PhoneCredentialRefusedError, PhoneRemovedError, rosterHas } from './phone-refusals'

/** How the phone reaches its relay. */
export interface PhoneDialOptions {
  /** The transport: `wsconnect` from @nats-io/nats-core in the browser. */
  connect: RelayConnect
  /** How long one dial keeps trying before the status says `unreachable` (default 10 s). */
  reachTimeoutMs?: number
  /** Reconnect pause of the NATS client (default 1 s); tests shorten it. */
  reconnectWaitMs?: number
  /** Accept an outdated nats-server on loopback (tests with a distribution's nats-server). */
  allowOutdatedLoopback?: boolean
}

/** What one dial opened: the dial that is current makes every older one's events fall silent. */
export interface PhoneSession {
  link: RelayLink
  desk: RelayDesk
  /** The agents the desktop allowed this phone to answer passwords for (phone-passwords.ts). */
  passwords: PhonePasswords
  /** This phone's member id (from its keys, not its NATS name): a receipt naming it is our own answer. */
  self: string
}

/** What a dial reports back to the bridge while it opens and after. */
export interface PhoneSessionHooks {
  /** The record as stored now (a dial may store a newer one: {@link saveRecord}). */
  record: () => PhoneRecord
  saveRecord: (record: PhoneRecord) => void
  /** False once a newer dial started or the bridge closed: the dial is then dropped. */
  isCurrent: () => boolean
  signal: AbortSignal
  now: () => number
  /** What the desk refused to show (a forged question, an unverifiable receipt, a rollback). */
  onDeskRefused: (refusal: DeskRefusal) => void
  /** A roster without this phone arrived on `link` after the dial opened (it was removed meanwhile). */
  onRemoved: (link: RelayLink) => void
  /** The agents this phone may answer passwords for changed. */
  onPasswordsChange: () => void
  /** The password record could not be followed or was refused (a sentence with its code, never content). */
  onPasswordsRefused: (why: string) => void
}

/** How long one dial waits for the relay to start the password record's watch. */
const PASSWORDS_START_MS = 30_000

/**
 * Opens one dial: the link, the desk (its first roster verified against the pinned root key; a newer one
 * stored through `saveRecord`), then the password record's watch. Resolves `undefined` when a newer
 * dial made this one stale (everything opened is closed). Throws the link's and the desk's refusals, and
 * {@link PhoneRemovedError} when the roster does not list this phone.
 */
export async function openPhoneSession(
  options: PhoneDialOptions,
  hooks: PhoneSessionHooks,
): Promise<PhoneSession | undefined> {
  const record = hooks.record()
  // The keys load (WebCrypto imports) while the link dials.
  const deviceLoad = loadMemberKeys(record.secret)
  deviceLoad.catch(() => undefined)
  const link = await RelayLink.open({
    url: record.url,
    connect: options.connect,
    creds: record.creds,
    name: record.natsName,
    reachTimeoutMs: options.reachTimeoutMs ?? 10_000,
    reconnectWaitMs: options.reconnectWaitMs ?? 1_000,
    allowOutdatedLoopback: options.allowOutdatedLoopback ?? false,
    signal: hooks.signal,
  }).catch((error: unknown) => {
    // Refused at connect: the credential itself (an operation refused later is the account's rights).
    throw isRelayExchangeError(error, 'RELAY_DENIED') ? new PhoneCredentialRefusedError(error) : error
  })
  if (!hooks.isCurrent()) {
    void link.close()
    return undefined
  }
  const device = await deviceLoad.catch((error: unknown) => {
    void link.close()
    throw error
  })
  const self = device.member.id
  let roster: Roster | undefined
  let opened = false
  const desk = await RelayDesk.start({
    link,
    device,
    rootPublicKey: record.rootPublicKey,
    highestSeenRosterVersion: record.highestRosterVersion,
    now: hooks.now,
    onRefused: hooks.onDeskRefused,
    onRosterAccepted: (accepted, signed) => {
      roster = accepted
      if (opened && !rosterHas(accepted, self)) hooks.onRemoved(link)
      const stored = hooks.record()
      if (accepted.version <= stored.highestRosterVersion) return
      hooks.saveRecord({
        ...stored,
        roster: { bytes: toBase64url(signed.bytes), signature: toBase64url(signed.signature) },
        highestRosterVersion: accepted.version,
      })
    },
  })
  if (roster !== undefined && !rosterHas(roster, self)) {
    desk.close()
    void link.close()
    throw new PhoneRemovedError()
  }
  const passwords = await PhonePasswords.start(
    {
      link,
      device,
      natsName: record.natsName,
      roster: () => roster,
      highestVersion: record.highestPasswordsVersion ?? 0,
      onNewVersion: (version) => hooks.saveRecord({ ...hooks.record(), highestPasswordsVersion: version }),
      onChange: () => hooks.isCurrent() && hooks.onPasswordsChange(),
      onRefused: (why) => hooks.isCurrent() && hooks.onPasswordsRefused(why),
    },
    AbortSignal.any([hooks.signal, AbortSignal.timeout(PASSWORDS_START_MS)]),
  )
  if (!hooks.isCurrent()) {
    passwords.close()
    desk.close()
    void link.close()
    return undefined
  }
  opened = true
  return { link, desk, passwords, self }
}
