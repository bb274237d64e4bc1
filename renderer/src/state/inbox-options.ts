import { ARMING_MS } from './arming.svelte'
import { QUIET_MS } from './card-hold'
import { browserViewClock, type ViewClock } from './view-clock'

/** Options of the inbox state (tests shorten the delays and drive the clock). */
export interface InboxOptions {
  /** Where drafts are kept (sessionStorage in the app; none = memory only). */
  storage?: Storage
  /** How long a selected card settled elsewhere stays to say so, in ms (default 2500). */
  lingerMs?: number
  /** How many history entries to ask for (default 200). */
  historyLimit?: number
  /** How long a card the person did not open themselves ignores decisions, in ms (default `ARMING_MS`, 600). */
  armingMs?: number
  /** How long after the last input in the card on screen it may not change, in ms (default `QUIET_MS`, 1000). */
  quietMs?: number
  /** The time source of lingering, arming, holding and bursts (default: the browser's). */
  clock?: ViewClock
}

/** The options with every default filled in (`storage` stays optional: none keeps drafts in memory). */
export type InboxSettings = Required<Omit<InboxOptions, 'storage'>> & Pick<InboxOptions, 'storage'>

/** Fills in the defaults of the options left out. */
export function inboxSettings(options: InboxOptions): InboxSettings {
  return {
    storage: options.storage,
    lingerMs: options.lingerMs ?? 2500,
    historyLimit: options.historyLimit ?? 200,
    armingMs: options.armingMs ?? ARMING_MS,
    quietMs: options.quietMs ?? QUIET_MS,
    clock: options.clock ?? browserViewClock,
  }
}
