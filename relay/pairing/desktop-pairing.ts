// The first desktop's side of pairing over the `pair` bucket: wait for the one request of this pairing,
// check its MAC, let the person compare the 6-digit code and confirm, then grant. A second request for
// the same pairing is an alarm: someone else holds the line (or the relay meddles), so nothing is granted.
import type { NatsConnection } from '@nats-io/nats-core'
import type { SignedRoster } from '../crypto/roster'
import { BUCKETS } from '../nats/templates'
import { RelayPairingError } from './errors'
import { createEntry, getEntry, watchKey } from './relay-kv'
import { checkPairRequest, confirmationCode } from './request'
import { declinePairResponse, pairingCancelled, sealPairGrant } from './response'
import type { DeskSecrets, PairOffer, PairRequestBody } from './schemas'

/** What the desktop grants a confirmed device: its credential and the re-signed roster that lists it. */
export interface PairGrantInput {
  jwt: string
  natsName: string
  credsExpiresAt: number
  roster: SignedRoster
  /** Only for a joining desktop: what lets it act as a desktop (see DeskSecretsSchema). */
  desk?: DeskSecrets
}

/** The hooks the caller (terminal or window) provides; `now` is injectable for tests. */
export interface DesktopPairingHooks {
  /** Shows the request's device name and code and resolves with the person's decision. */
  confirm: (request: PairRequestBody, code: string) => Promise<boolean>
  /** Adds the device to the roster and mints its credential; called only after confirmation. A refusal here is passed on (and the device told no). */
  grant: (request: PairRequestBody) => Promise<PairGrantInput>
  /**
   * Aborted when the person cancels: the run stops listening and withdraws the offer (a "cancelled"
   * decline at `resp.<pairId>`), so a device that asks later is told at once instead of waiting for expiry.
   */
  signal?: AbortSignal
  /** Accept a request from a joining desktop (`relay connect`); default: devices only. */
  allowDesktop?: boolean
  now?: () => number
}

/**
 * Runs one pairing for `offer` through `nc` (a desktop connection) and returns the paired request.
 * Refuses with `RELAY_PAIR_EXPIRED` (no request in time), `RELAY_PAIR_SECOND_REQUEST` (the alarm),
 * `RELAY_PAIR_DECLINED` (the person said no), `RELAY_PAIR_CANCELLED` (`signal` aborted) or a request refusal (`RELAY_PAIR_MAC`, `RELAY_PAIR_REPLAY`,
 * …); every refusal after a request arrived is also written as a decline, so the device stops waiting.
 */
export async function runDesktopPairing(
  nc: NatsConnection,
  offer: PairOffer,
  hooks: DesktopPairingHooks,
): Promise<PairRequestBody> {
  const now = hooks.now ?? Date.now
  const requestKey = `req.${offer.pairId}`
  const decline = (reason?: 'cancelled'): Promise<boolean> =>
    createEntry(nc, BUCKETS.pair, `resp.${offer.pairId}`, declinePairResponse(offer.pairId, reason)).catch(() => false)
  const isCancel = (error: unknown): boolean =>
    error instanceof RelayPairingError && error.code === 'RELAY_PAIR_CANCELLED'
  let onAbort: (() => void) | undefined
  const cancelled = new Promise<never>((_, reject) => {
    onAbort = () => reject(pairingCancelled())
    if (hooks.signal?.aborted) onAbort()
    else hooks.signal?.addEventListener('abort', onAbort, { once: true })
  })
  cancelled.catch(() => undefined)

  let settle!: (entry: { value: Uint8Array; revision: number }) => void
  let alarm!: (error: RelayPairingError) => void
  const first = new Promise<{ value: Uint8Array; revision: number }>((resolve) => (settle = resolve))
  const second = new Promise<never>((_, reject) => (alarm = reject))
  second.catch(() => undefined)
  let seen = 0
  const watch = await watchKey(nc, BUCKETS.pair, requestKey, (entry) => {
    seen += 1
    if (seen === 1) settle({ value: entry.value, revision: entry.revision })
    else alarm(secondRequest())
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RelayPairingError(
            'RELAY_PAIR_EXPIRED',
            'No device joined before the pairing line expired; run `ask-user relay pair` again.',
          ),
        ),
      Math.max(0, offer.expiresAt - now()),
    )
  })
  expired.catch(() => undefined)
  try {
    // Before any request, only Cancel writes a reply (the withdrawal); at expiry the device times out itself.
    const entry = await Promise.race([first, expired, cancelled]).catch(async (error: unknown) => {
      if (isCancel(error)) await decline('cancelled')
      throw error
    })
    let request: PairRequestBody
    try {
      request = await checkPairRequest(offer, entry.value, now(), { allowDesktop: hooks.allowDesktop === true })
    } catch (error) {
      await decline()
      throw error
    }
    const confirmed = await Promise.race([
      hooks.confirm(request, await confirmationCode(offer, entry.value)),
      second,
      expired,
      cancelled,
    ]).catch(async (error: unknown) => {
      await decline(isCancel(error) ? 'cancelled' : undefined)
      throw error
    })
    if (!confirmed) {
      await decline()
      throw new RelayPairingError(
        'RELAY_PAIR_DECLINED',
        `Pairing "${request.member.name}" was declined; nothing was paired.`,
      )
    }
    // The watch may lag: read the key again so a request written meanwhile is not missed.
    if ((await getEntry(nc, BUCKETS.pair, requestKey))?.revision !== entry.revision) {
      await decline()
      throw secondRequest()
    }
    const grant = await hooks.grant(request).catch(async (error: unknown) => {
      await decline()
      throw error
    })
    const response = await sealPairGrant({ offer, request, storedRequest: entry.value, ...grant })
    await createEntry(nc, BUCKETS.pair, `resp.${offer.pairId}`, response)
    return request
  } finally {
    clearTimeout(timer)
    if (onAbort !== undefined) hooks.signal?.removeEventListener('abort', onAbort)
    watch.stop()
  }
}

function secondRequest(): RelayPairingError {
  return new RelayPairingError(
    'RELAY_PAIR_SECOND_REQUEST',
    'ALARM: a second device answered the same pairing line, so someone else has seen it. Nothing was paired; check where the line was shown, then run `ask-user relay pair` again.',
  )
}
