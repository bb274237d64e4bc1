// Presence (issue 32, "Nothing lost"): a waiting agent refreshes `presence.<agent>` now and then; the
// bucket keeps a value 90 s. A desk that sees no contact from an agent for longer marks that agent's asks
// "agent unreachable" and keeps them answerable: a lapse of presence never settles an ask, only the
// ask's expiry or the agent's withdrawal does. KV max_age expiry sends no delete marker on server 2.9,
// so the desk keeps its own clock per agent rather than waiting for the value to vanish. Each value is
// signed by the agent (relay/crypto presence-envelope.ts): a desk counts only a value an agent of the
// roster signed for its own key, so the relay cannot make a gone agent look alive.
import { jetstream } from '@nats-io/jetstream'
import { openPresence, signPresence, type MemberKeys, type Roster } from '../crypto'
import { BUCKETS } from '../nats/templates'
import { askerToken } from './desk-question'
import type { RelayLink } from './relay-link'
import { unrefTimer, type TimerHandle } from './delay'

/** The bucket presence values live in (bucket max_age 90 s, relay/nats/buckets.ts). */
export const PRESENCE_BUCKET = BUCKETS.presence
/** How often a waiting agent refreshes its presence: three refreshes fit in the bucket's 90 s. */
export const PRESENCE_REFRESH_MS = 30_000
/** How long a desk waits without contact before it marks an agent unreachable: the bucket's max_age. */
export const PRESENCE_LAPSE_MS = 90_000

/**
 * The agent's end: while at least one ask waits ({@link hold}), writes `presence.<key>` at once, every
 * `periodMs`, and right after each reconnect. A failed write is dropped (the link is down; the next
 * period or the reconnect tries again). The value says only that the agent is there, and when: signed
 * by `agent` over its member id, `key` and the time.
 */
export class PresenceBeacon {
  readonly #link: RelayLink
  readonly #agent: MemberKeys
  readonly #key: string
  readonly #periodMs: number
  readonly #now: () => number
  #holders = 0
  #timer: TimerHandle | undefined
  #unsubscribe: (() => void) | undefined

  /** `key`: the agent's presence key, its credential name (the token of its inbox keys). */
  constructor(link: RelayLink, agent: MemberKeys, key: string, periodMs = PRESENCE_REFRESH_MS, now = Date.now) {
    this.#link = link
    this.#agent = agent
    this.#key = key
    this.#periodMs = periodMs
    this.#now = now
  }

  /** Starts refreshing (if not already) for one waiting ask; returns its release, idempotent. */
  hold(): () => void {
    this.#holders++
    if (this.#holders === 1) this.#start()
    let released = false
    return () => {
      if (released) return
      released = true
      this.#holders--
      if (this.#holders === 0) this.#stop()
    }
  }

  #start(): void {
    this.#refresh()
    this.#timer = setInterval(() => this.#refresh(), this.#periodMs)
    unrefTimer(this.#timer)
    this.#unsubscribe = this.#link.onReconnect(() => this.#refresh())
  }

  #stop(): void {
    clearInterval(this.#timer)
    this.#unsubscribe?.()
    this.#timer = undefined
    this.#unsubscribe = undefined
  }

  #refresh(): void {
    void signPresence(this.#agent, { key: this.#key, at: this.#now() })
      .then((value) =>
        jetstream(this.#link.nc, { checkAPI: false }).publish(`$KV.${PRESENCE_BUCKET}.${this.#key}`, value, {
          timeout: Math.min(this.#periodMs, 5_000),
        }),
      )
      .catch(() => undefined)
  }
}

/** An agent's reachability as a desk sees it: `unreachableSince` (its last contact, ms) when it lapsed. */
export interface PresenceChange {
  readonly agent: string
  readonly unreachableSince?: number
}

/** What a {@link PresenceTracker} needs: the lapse, a clock, and where changes go. */
export interface PresenceTrackerOptions {
  lapseMs?: number | undefined
  now?: () => number
  onChange: (change: PresenceChange) => void
}

interface AgentContact {
  last: number
  unreachable: boolean
  timer?: TimerHandle | undefined
}

/**
 * The desk's end: every contact from an agent (a presence refresh, a question it wrote) counts, at the
 * time the relay stored it (never later than this desk's clock). No contact for `lapseMs` marks the agent
 * unreachable since its last contact; the next contact clears the mark. Tells `onChange` each flip.
 */
export class PresenceTracker {
  readonly #lapseMs: number
  readonly #now: () => number
  readonly #onChange: (change: PresenceChange) => void
  readonly #agents = new Map<string, AgentContact>()
  /** The presence values being verified, in order (see {@link signedContact}). */
  #verifying: Promise<void> = Promise.resolve()

  constructor(options: PresenceTrackerOptions) {
    this.#lapseMs = options.lapseMs ?? PRESENCE_LAPSE_MS
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
  }

  /**
   * Records the presence value `entry` (as the presence watch delivers it) as contact, only once verified
   * against `roster`: signed by the asker of the roster whose credential name is the key (an agent, or the
   * desktop for the local asks it mirrors), for that key,
   * at a time within one lapse of when the relay stored it (so an old value put back by the relay counts
   * no more than its own time would). Anything else is ignored: it neither marks nor resets a lapse.
   * Values are handled one at a time in the order given. Resolves once handled; never rejects.
   */
  signedContact(entry: { key: string; value: Uint8Array; created: Date }, roster: Roster | undefined): Promise<void> {
    this.#verifying = this.#verifying.then(async () => {
      if (roster === undefined) return
      const storedAt = entry.created.getTime()
      const opened = await openPresence(entry.value, { roster, kvKey: entry.key }).catch(() => undefined)
      if (opened === undefined || askerToken(opened.agent) !== entry.key) return
      if (Math.abs(opened.presence.at - storedAt) > this.#lapseMs) return
      this.contact(entry.key, storedAt)
    })
    return this.#verifying
  }

  /** Records a contact from `agent` stored at `at` (ms since the epoch). */
  contact(agent: string, at: number): void {
    const now = this.#now()
    const when = Math.min(at, now)
    const known = this.#agents.get(agent)
    if (known && known.last >= when) return
    const state: AgentContact = known ?? { last: when, unreachable: false }
    state.last = when
    clearTimeout(state.timer)
    this.#agents.set(agent, state)
    const left = when + this.#lapseMs - now
    if (left <= 0) return this.#lapse(agent, state)
    if (state.unreachable) {
      state.unreachable = false
      this.#onChange({ agent })
    }
    state.timer = setTimeout(() => this.#lapse(agent, state), left)
    unrefTimer(state.timer)
  }

  /** When `agent` lapsed (its last contact), or `undefined` while it is reachable or unknown. */
  unreachableSince(agent: string): number | undefined {
    const state = this.#agents.get(agent)
    return state?.unreachable ? state.last : undefined
  }

  /** Stops every timer. */
  close(): void {
    for (const state of this.#agents.values()) clearTimeout(state.timer)
    this.#agents.clear()
  }

  #lapse(agent: string, state: AgentContact): void {
    state.timer = undefined
    if (state.unreachable) return
    state.unreachable = true
    this.#onChange({ agent, unreachableSince: state.last })
  }
}
