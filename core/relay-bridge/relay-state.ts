// The relay state the windows' "Relay" view shows: the bridge feeds it (link changes, this desk, the roster it
// holds, each agent's last question or receipt), the registry gives the count of remote asks pending, and the
// window hub sends it to every UI v2 window. Statically imported by the companion, so it imports nothing of
// relay/: a companion without a relay loads none of that code, and never sends this state.
import type { Ask } from '../../shared/ask'
import { Listeners } from '../../shared/listeners'
import {
  AGENT_CREDENTIAL_WARN_BEFORE_MS,
  ROSTER_WARN_BEFORE_MS,
  type RelayAgentView,
  type RelayDeviceView,
  type RelayLinkState,
  type RelayState,
} from '../../shared/relay-state'
import type { Registry } from '../registry'

/** One roster member as the bridge hands it over: its public facts only (relay/crypto `Member` fits). */
export interface RosterMemberFacts {
  readonly id: string
  readonly name: string
  readonly role: 'desktop' | 'device' | 'agent'
  readonly suite: string
  readonly addedAt?: number | undefined
}

/** The roster as the bridge hands it over (relay/crypto `Roster` fits). */
export interface RosterFacts {
  readonly version: number
  readonly expiresAt: number
  readonly members: readonly RosterMemberFacts[]
}

const isRemote = (ask: Ask): boolean => ask.kind === 'question' && ask.origin?.kind === 'relay'

/**
 * The companion's relay state. Unconfigured (`current()` undefined) until the bridge finds a relay in the
 * home; then every change is announced through {@link onChange}. Only public facts go in: the types take
 * names, roles, times and counts, never a credential, key or seed.
 */
export class RelayStateBoard {
  readonly #now: () => number
  readonly #registry: Registry
  readonly #changes: Listeners<[state: RelayState]>
  #configured = false
  #link: RelayLinkState = { state: 'connecting' }
  #desk: { id: string; name: string; role: 'desktop' | 'device' } | undefined
  #roster: RosterFacts | undefined
  /** Agent member id → when this desk last saw a question or receipt from it. */
  readonly #lastContact = new Map<string, number>()
  /** Agent member id → when its relay credential expires (ms), as the first desktop recorded it. */
  #credentialExpiry: ReadonlyMap<string, number> = new Map()
  /** Agent member ids this desk answers password questions for. */
  #passwordsAllowed: ReadonlySet<string> = new Set()
  #passwordsOnDevices: (agentId: string, paired: readonly string[]) => readonly string[] = () => []
  /** The first desktop's "mirror local asks" (undefined until read). */
  #mirrorLocalAsks: boolean | undefined
  #pendingRemote = 0
  #publishing = false

  constructor(registry: Registry, now: () => number, warn: (message: string) => void) {
    this.#registry = registry
    this.#now = now
    this.#changes = new Listeners((error) => warn(`a relay state listener failed: ${String(error)}`))
    const recount = (ask: Ask): void => {
      if (!isRemote(ask)) return
      const count = registry.pending().filter(isRemote).length
      if (count === this.#pendingRemote) return
      this.#pendingRemote = count
      this.#publish()
    }
    registry.onAdded(recount)
    registry.onResolved(recount)
  }

  /** The state to show, or undefined while no relay is configured. */
  current(): RelayState | undefined {
    if (!this.#configured) return undefined
    const roster = this.#roster
    const members = roster?.members ?? []
    const devices: RelayDeviceView[] = members.flatMap((member) =>
      member.role === 'agent'
        ? []
        : [
            {
              name: member.name,
              role: member.role,
              suite: member.suite,
              ...(member.addedAt !== undefined ? { pairedAt: member.addedAt } : {}),
              ...(member.id === this.#desk?.id ? { self: true as const } : {}),
            },
          ],
    )
    const paired = members.filter((member) => member.role === 'device').map((member) => member.name)
    const agents: RelayAgentView[] = members.flatMap((member) => {
      if (member.role !== 'agent') return []
      const onDevices = this.#passwordsOnDevices(member.id, paired)
      const lastContactAt = this.#lastContact.get(member.id)
      const credentialExpiresAt = this.#credentialExpiry.get(member.id)
      return [
        {
          name: member.name,
          ...(credentialExpiresAt !== undefined
            ? {
                credentialExpiresAt,
                credentialExpiresSoon: credentialExpiresAt - this.#now() < AGENT_CREDENTIAL_WARN_BEFORE_MS,
              }
            : {}),
          ...(lastContactAt !== undefined ? { lastContactAt } : {}),
          ...(this.#passwordsAllowed.has(member.id) ? { passwordsAllowed: true as const } : {}),
          ...(onDevices.length > 0 ? { passwordsOnDevices: [...onDevices] } : {}),
        },
      ]
    })
    return {
      configured: true,
      link: this.#link,
      ...(this.#desk ? { desk: { name: this.#desk.name, role: this.#desk.role } } : {}),
      ...(roster
        ? {
            roster: {
              version: roster.version,
              expiresAt: roster.expiresAt,
              expiresSoon: roster.expiresAt - this.#now() < ROSTER_WARN_BEFORE_MS,
            },
          }
        : {}),
      devices,
      agents,
      pendingRemote: this.#pendingRemote,
      ...(this.#desk?.role === 'desktop' && this.#mirrorLocalAsks !== undefined
        ? { mirrorLocalAsks: this.#mirrorLocalAsks }
        : {}),
    }
  }

  /** Calls `listener` with the new state after changes (at most once a turn); returns the unsubscribe function. */
  onChange(listener: (state: RelayState) => void): () => void {
    return this.#changes.add(listener)
  }

  /** A relay is configured in the home: from now on the windows are sent the state. */
  configured(): void {
    this.#configured = true
    this.#pendingRemote = this.#registry.pending().filter(isRemote).length
    this.#publish()
  }

  /** The link was reached (again). */
  connected(): void {
    if (this.#link.state !== 'connected') this.#setLink({ state: 'connected', since: this.#now() })
  }

  /** The link is down; `since` stays the moment it was first lost while the bridge keeps trying. */
  unreachable(): void {
    if (this.#link.state !== 'unreachable') this.#setLink({ state: 'unreachable', since: this.#now() })
  }

  /** The bridge gave up (or was closed): `reason` says why and what to do. */
  stopped(reason: string): void {
    this.#setLink({ state: 'stopped', reason })
  }

  /** This desk: its roster member id and name, and its side of the relay. */
  desk(desk: { id: string; name: string; role: 'desktop' | 'device' }): void {
    this.#desk = { ...desk }
    this.#publish()
  }

  /** The roster this desk now holds (a newer one replaces it; an older one is ignored). */
  roster(roster: RosterFacts): void {
    if (this.#roster && roster.version < this.#roster.version) return
    const members = roster.members.map(({ id, name, role, suite, addedAt }) => ({ id, name, role, suite, addedAt }))
    this.#roster = { version: roster.version, expiresAt: roster.expiresAt, members }
    this.#publish()
  }

  /** The agents' credential expiries (member id → ms) this home records; replaces the ones known before. */
  agentCredentials(expiries: ReadonlyMap<string, number>): void {
    this.#credentialExpiry = new Map(expiries)
    this.#publish()
  }

  /**
   * The agents (member ids) this desk now answers password questions for, and for each the names of the
   * phones also allowed (`devicesOf`, given the names of the devices the roster lists); replaces the ones before.
   */
  passwordsAllowed(
    agentIds: Iterable<string>,
    devicesOf: (agentId: string, paired: readonly string[]) => readonly string[] = () => [],
  ): void {
    this.#passwordsAllowed = new Set(agentIds)
    this.#passwordsOnDevices = devicesOf
    this.#publish()
  }

  /** The first desktop's "mirror local asks" setting as just read. */
  mirrorLocalAsks(on: boolean): void {
    if (on === this.#mirrorLocalAsks) return
    this.#mirrorLocalAsks = on
    this.#publish()
  }

  /** A question or receipt from the agent of member id `agentId` was just seen. */
  contact(agentId: string): void {
    this.#lastContact.set(agentId, this.#now())
    this.#publish()
  }

  #setLink(link: RelayLinkState): void {
    this.#link = link
    this.#publish()
  }

  /**
   * Announces the state once per turn of the event loop however many changes it saw: a desk that
   * connects to a thousand pending remote asks sends the windows one state, not two per ask.
   */
  #publish(): void {
    if (this.#publishing) return
    this.#publishing = true
    setImmediate(() => {
      this.#publishing = false
      const state = this.current()
      if (state) this.#changes.emit(state)
    })
  }
}
