// The running desktop's part of Web Push: when a phone writes or replaces its subscription record
// (`roster` bucket `sub.<device>`), or a receipt reports a subscription gone, the roster is re-signed with
// the re-sealed push section at once, not only at the next start. One refresh at a time; each opens a
// short desktop link as the CLI's roster commands do (it publishes with the roster's compare-and-set).
import type { GonePush } from '../push/notifier'
import { SUBSCRIPTION_KEY_PREFIX, BUCKETS } from '../nats/templates'
import type { RelayLink } from '../exchange/relay-link'
import { openBucket, RenewingWatch } from '../exchange/relay-kv'
import { CLI_SERVER_CHECKS, openDesktopLink } from './desktop-link'
import { describeRelayError } from './errors'
import { refreshPushRoster } from './push-roster'

/** What {@link followPushSubscriptions} returns: where the bridge hands on a receipt's gone subscriptions. */
export interface PushKeeper {
  reportGone(gone: readonly GonePush[]): void
  /** Resolves when every refresh asked for so far has run (tests, and a clean shutdown). */
  idle(): Promise<void>
}

/**
 * Watches every device's subscription record through `link` (this desktop's relay connection) until
 * `signal` aborts, and re-signs the roster of desktop home `home` when the push section changed. Never
 * throws: a failed refresh is passed to `warn` and the next change (or the next start) tries again.
 */
export function followPushSubscriptions(
  home: string,
  link: RelayLink,
  options: { signal: AbortSignal; warn: (message: string) => void; now: () => number },
): PushKeeper {
  let queue: Promise<void> = Promise.resolve()
  const refresh = (gone: readonly GonePush[] = []): void => {
    queue = queue.then(async () => {
      if (options.signal.aborted) return
      try {
        const desktop = await openDesktopLink(home, options.now, CLI_SERVER_CHECKS)
        try {
          await refreshPushRoster(home, desktop, { now: options.now(), gone })
        } finally {
          await desktop.nc.close()
        }
      } catch (error) {
        options.warn(`push: the roster's push section was not updated (${describeRelayError(error)})`)
      }
    })
  }
  void (async () => {
    try {
      const kv = await openBucket(link.nc, BUCKETS.roster)
      await RenewingWatch.start(link, kv, `${SUBSCRIPTION_KEY_PREFIX}.*`, () => refresh(), options.signal)
    } catch (error) {
      if (!options.signal.aborted) options.warn(`push: not watching phone subscriptions (${describeRelayError(error)})`)
    }
  })()
  return { reportGone: (gone) => gone.length > 0 && refresh(gone), idle: () => queue }
}
