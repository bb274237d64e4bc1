// The new device's side of pairing, runtime-neutral: make its own keys (HPKE, signing, NATS nkey), send
// the MAC'd request through the `pair` bucket with the offer's pairing credential, show the code, and
// wait for the desktop's sealed grant. Private keys never leave the device; the desktop mints a JWT for
// its nkey. The terminal (join-pairing.ts) and the phone pass their own way of dialling the relay.
import { fmtCreds } from '@nats-io/jwt'
import { createUser } from '@nats-io/nkeys'
import { generateMemberIdentity, loadMemberKeys } from '../crypto/keys'
import type { SignedRoster } from '../crypto/roster'
import type { MemberSecret, Roster } from '../crypto/schemas'
import { BUCKETS } from '../nats/templates'
import { RelayPairingError } from './errors'
import { createEntry, getEntry, watchKey, type RelayConnect } from './relay-kv'
import { confirmationCode, makePairRequest } from './request'
import { openPairResponse } from './response'
import { DeviceNameSchema, type PairGrant, type PairOffer } from './schemas'

/** What a joined device keeps: its member keys, its relay credential and the roster listing it. Secret. */
export interface JoinedDevice {
  secret: MemberSecret
  /** The NATS `.creds` text (the desktop's JWT for this device's nkey, and the nkey seed). */
  creds: string
  grant: PairGrant
  roster: Roster
  signedRoster: SignedRoster
}

/** How a device joins: its name, where it shows the code, how it dials; `now` for tests. */
export interface JoinOptions {
  name: string
  /** `desktop` for `relay connect` (the grant must then carry the desk secrets); default `device`. */
  role?: 'device' | 'desktop'
  showCode: (code: string) => void
  connect: RelayConnect
  now?: () => number
}

/**
 * Joins with a parsed `offer` under the device name `name`. `showCode` is called with the 6-digit code
 * once the request is stored. Refuses with `RELAY_PAIR_REQUEST_INVALID` (a bad name),
 * `RELAY_PAIR_LINE_USED` (another request took this offer: an alarm), `RELAY_PAIR_EXPIRED`,
 * `RELAY_PAIR_DECLINED`, `RELAY_PAIR_RESPONSE_INVALID` (also a grant without the desk secrets to a desktop), a roster code, or the connect function's error.
 */
export async function joinPairingWith(offer: PairOffer, options: JoinOptions): Promise<JoinedDevice> {
  const now = options.now ?? Date.now
  if (!DeviceNameSchema.safeParse(options.name).success) {
    throw new RelayPairingError(
      'RELAY_PAIR_REQUEST_INVALID',
      'A device name is 1-100 characters without control characters; pick another name.',
    )
  }
  const role = options.role ?? 'device'
  const identity = await generateMemberIdentity(options.name, role)
  const keys = await loadMemberKeys(identity.secret)
  const nkey = createUser()
  const request = await makePairRequest(offer, identity.member, nkey.getPublicKey(), now())
  const nc = await options.connect(offer.url, offer.creds, offer.pairId)
  try {
    let arrived!: (value: Uint8Array) => void
    const response = new Promise<Uint8Array>((resolve) => (arrived = resolve))
    const watch = await watchKey(nc, BUCKETS.pair, `resp.${offer.pairId}`, (entry) => arrived(entry.value))
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      // An offer withdrawn on the desktop (Cancel) before any device asked already holds its reply: say so
      // before writing a request, and never show a code for a pairing that is over. Any other early reply
      // answered someone else's request: the request below then fails and raises the used-line alarm.
      const early = await getEntry(nc, BUCKETS.pair, `resp.${offer.pairId}`)
      if (early !== undefined)
        await openPairResponse(keys, early.value, { offer, storedRequest: request, now: now() }).catch(
          (error: unknown) => {
            if (error instanceof RelayPairingError && error.code === 'RELAY_PAIR_CANCELLED') throw error
          },
        )
      if (!(await createEntry(nc, BUCKETS.pair, `req.${offer.pairId}`, request))) {
        throw new RelayPairingError(
          'RELAY_PAIR_LINE_USED',
          'ALARM: another device already answered this pairing offer, so someone else has seen it. Decline on the first desktop and start pairing again there.',
        )
      }
      options.showCode(await confirmationCode(offer, request))
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new RelayPairingError(
                'RELAY_PAIR_EXPIRED',
                'The first desktop did not confirm before the pairing offer expired; start pairing again on the desktop.',
              ),
            ),
          Math.max(0, offer.expiresAt - now()),
        )
      })
      const stored = await Promise.race([response, expired])
      const opened = await openPairResponse(keys, stored, { offer, storedRequest: request, now: now() })
      // A desktop without the desk secrets could not sign or mint: the grant answered a device pairing.
      if ((role === 'desktop') !== (opened.grant.desk !== undefined)) {
        throw new RelayPairingError(
          'RELAY_PAIR_RESPONSE_INVALID',
          role === 'desktop'
            ? "The desktop's reply does not carry what a second desktop needs (an older release answered); nothing was stored. Update the first desktop, then run `ask-user relay pair` there again."
            : "The desktop's reply is meant for a desktop, not a device; nothing was stored. Run `ask-user relay pair` on the desktop again.",
        )
      }
      const creds = new TextDecoder().decode(fmtCreds(opened.grant.jwt, nkey))
      return { secret: identity.secret, creds, ...opened }
    } finally {
      clearTimeout(timer)
      watch.stop()
    }
  } finally {
    await nc.close()
  }
}
