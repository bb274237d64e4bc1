// Pairing on a desktop (`ask-user relay pair`, and "Add a phone" in the desktop window): one offer, one
// confirmed device, added to the re-signed roster (version + 1) and given its own 7-day credential,
// sealed to it. In the terminal the one who joins may be another desktop (`relay connect`): it gets the
// desk secrets too (desk-secrets.ts), so it can sign rosters and mint credentials as this one does.
import type { Member } from '../crypto'
import { mintRoleCredential, mintRoleJwt } from '../nats/credentials'
import { DEVICE_CREDENTIAL_SECONDS } from '../renewal'
import {
  createPairOffer,
  formatPairLine,
  formatPairLink,
  newPairId,
  PAIR_OFFER_TTL_MS,
  runDesktopPairing,
  type PairRequestBody,
} from '../pairing'
import { syncDeskRecords } from './desk-records-sync'
import { deskSecretsOf } from './desk-secrets'
import { openDesktopLink } from './desktop-link'
import { restoreDevicePasswords } from './restore-device-passwords'
import { publishRosterChange } from './roster-change'
import { pushSectionForMembers } from './push-roster'
import { RelayHomeError } from './errors'
import { loadRenewals, RenewalsSchema, RENEWALS_FILE, saveJson } from './state'

/** The credential in a grant to a joining desktop: never used for long, it mints its own at each connection. */
const JOINED_DESKTOP_CREDENTIAL_SECONDS = 3_600

/** What {@link pairDevice} needs: where to show the line, how to ask the person; `now` for tests. */
export interface PairDeviceOptions {
  home: string
  /** Shows the one-time line to the person (stdout in the terminal). */
  showLine?: (line: string) => void
  /**
   * Pairs a phone instead (the desktop window's "Add a phone"): the offer names the relay's WebSocket
   * URL and is shown as the phone app's link (`<appUrl>#pair=…`, for a QR code) with its expiry (ms).
   */
  showPhoneLink?: (link: string, offer: { pairId: string; expiresAt: number }) => void
  /**
   * Shows the device's name and the 6-digit code and resolves with the person's decision. A request of
   * role `desktop` (only accepted without `showPhoneLink`) must be shown as a desktop that will be able to
   * change the roster.
   */
  confirm: (request: PairRequestBody, code: string) => Promise<boolean>
  /** Aborted when the person cancels: the offer is withdrawn on the relay at once (`RELAY_PAIR_CANCELLED`). */
  signal?: AbortSignal
  ttlMs?: number
  now?: () => number
}

/**
 * Pairs one device. Returns it and the new roster version. Refuses with the pairing codes
 * (`RELAY_PAIR_*`), `RELAY_NAME_TAKEN` (a member of that name exists; `relay remove` works by name),
 * `RELAY_NO_PHONE_URLS` (a phone, but the app or WebSocket URL is not set) and the desktop link's codes. Nothing changes unless the person confirmed and every check passed.
 */
export async function pairDevice(options: PairDeviceOptions): Promise<{ member: Member; rosterVersion: number }> {
  const now = options.now ?? Date.now
  const link = await openDesktopLink(options.home, now)
  const phone = options.showPhoneLink
  if (phone !== undefined && (link.settings.websocketUrl === undefined || link.settings.appUrl === undefined)) {
    await link.nc.close()
    throw new RelayHomeError(
      'RELAY_NO_PHONE_URLS',
      link.settings.appUrl === undefined
        ? 'No phone app URL is set, so a phone cannot open the pairing link; run `ask-user relay app-url URL` (where the phone app is served) on this desktop.'
        : "No WebSocket URL of the relay is set, so a phone cannot reach it; run `ask-user relay app-url --websocket-url wss://HOST:PORT` (the relay's WebSocket listener) on this desktop.",
    )
  }
  try {
    const pairId = newPairId()
    const ttlMs = options.ttlMs ?? PAIR_OFFER_TTL_MS
    const signer = (role: 'pair' | 'device' | 'desktop') => ({
      accountPublicKey: link.keys.accountPublicKey,
      signingSeed: link.keys.roleSigningSeeds[role],
      now,
    })
    const pairCredential = await mintRoleCredential(signer('pair'), 'pair', pairId, Math.ceil(ttlMs / 1000) + 60)
    const offer = createPairOffer({
      url: phone !== undefined ? link.settings.websocketUrl! : link.url,
      rootPublicKey: link.settings.rootPublicKey,
      pairId,
      creds: pairCredential.creds,
      now: now(),
      ttlMs,
    })
    if (phone !== undefined) phone(formatPairLink(link.settings.appUrl!, offer), offer)
    else options.showLine?.(formatPairLine(offer))
    let result: { member: Member; rosterVersion: number } | undefined
    await runDesktopPairing(link.nc, offer, {
      now,
      confirm: options.confirm,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      // A phone link opens in a browser, which never joins as a desktop.
      allowDesktop: phone === undefined,
      grant: async (request) => {
        let added: Member | undefined
        // Applied again on top of another desktop's change published meanwhile (roster-change.ts).
        const next = await publishRosterChange(link, options.home, now, async (current) => {
          if (current.members.some((member) => member.name === request.member.name)) {
            throw new RelayHomeError(
              'RELAY_NAME_TAKEN',
              `The roster already lists "${request.member.name}"; join again with another --name.`,
            )
          }
          added = { ...request.member, addedAt: now() }
          const members = [...current.members, added]
          return { members, push: await pushSectionForMembers(options.home, current, members) }
        })
        const member = added!
        const desktop = member.role === 'desktop'
        // A desktop mints its own short credential at each connection, so its one here is short and not renewed.
        const credential = await mintRoleJwt(
          signer(desktop ? 'desktop' : 'device'),
          desktop ? 'desktop' : 'device',
          member.id,
          request.nkey,
          desktop ? JOINED_DESKTOP_CREDENTIAL_SECONDS : DEVICE_CREDENTIAL_SECONDS,
        )
        const desk = desktop ? await deskSecretsOf(options.home, link.settings) : undefined
        if (!desktop) {
          const renewals = await loadRenewals(options.home)
          renewals.devices[member.id] = {
            renewedAt: now(),
            expiresAt: credential.expiresAt * 1000,
            nkey: request.nkey,
          }
          await saveJson(options.home, RENEWALS_FILE, RenewalsSchema, renewals)
        }
        // Shared with the other desktops (and re-sealed to a joining one); the cache holds it if this fails.
        await syncDeskRecords(link, options.home, next.roster).catch(() => undefined)
        // Agents allowed on every paired device (`--phones`): the new phone may answer their passwords at once.
        if (!desktop) await restoreDevicePasswords(options.home, link, next.roster).catch(() => undefined)
        result = { member, rosterVersion: next.roster.version }
        return {
          jwt: credential.jwt,
          natsName: member.id,
          credsExpiresAt: credential.expiresAt,
          roster: next,
          ...(desk === undefined ? {} : { desk }),
        }
      },
    })
    return result!
  } finally {
    await link.nc.close()
  }
}
