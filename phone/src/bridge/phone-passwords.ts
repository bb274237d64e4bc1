// The phone's copy of "Allow passwords from this agent … also on this phone": the record a desktop left
// at `roster/pw.<this phone>` (relay/home/passwords-record.ts), opened with the phone's own key, watched
// while the phone is connected. Only the allowed agent ids are kept, in memory; the highest version taken
// is stored in the phone's record so that an older one is refused after a reload too.
import type { KvEntry } from '@nats-io/kv'
import type { MemberKeys } from '../../../relay/crypto/keys'
import type { Roster } from '../../../relay/crypto/schemas'
import { findMember } from '../../../relay/crypto/roster'
import { openBucket, RenewingWatch } from '../../../relay/exchange/relay-kv'
import type { RelayLink } from '../../../relay/exchange/relay-link'
import { describeRelayError } from '../../../relay/home/errors'
import { openDevicePasswords, passwordsRecordKey } from '../../../relay/home/passwords-record'
import { BUCKETS } from '../../../relay/nats/templates'

/** What following the record needs. */
export interface PhonePasswordsOptions {
  link: RelayLink
  device: MemberKeys
  /** The NATS name in the phone's credential (its member id): the record lives at `pw.<natsName>`. */
  natsName: string
  /** The desk's current verified roster (the record is checked against it, agents filtered by it). */
  roster: () => Roster | undefined
  /** The highest record version this phone took before (0 for none). */
  highestVersion: number
  /** A newer record was taken: its version, to store beside the roster's. */
  onNewVersion: (version: number) => void
  /** The allowed agents changed. */
  onChange: () => void
  /** A record was refused (a forged one, another device's, a rollback): the code and sentence, never content. */
  onRefused: (why: string) => void
}

/** The agents this phone may answer password questions for, kept current while its link is up. */
export class PhonePasswords {
  readonly #options: PhonePasswordsOptions
  #highest: number
  #allowed: readonly string[] = []
  #watch: RenewingWatch | undefined

  private constructor(options: PhonePasswordsOptions) {
    this.#options = options
    this.#highest = options.highestVersion
  }

  /**
   * Watches this phone's record (the current value arrives first) until {@link close}; resolves once the
   * watch is in place, retrying through outages until `signal` aborts. Never throws: a watch that cannot
   * start (a relay whose account predates these records refuses it until the first desktop's next
   * renewal pushes the new rights) is reported through `onRefused` and allows no agent; the inbox works on.
   */
  static async start(options: PhonePasswordsOptions, signal: AbortSignal): Promise<PhonePasswords> {
    const passwords = new PhonePasswords(options)
    try {
      const roster = await openBucket(options.link.nc, BUCKETS.roster)
      passwords.#watch = await RenewingWatch.start(
        options.link,
        roster,
        passwordsRecordKey(options.natsName),
        (entry) => void passwords.#take(entry),
        signal,
      )
    } catch (error) {
      options.onRefused(`password questions are not answerable on this phone: ${describeRelayError(error)}`)
    }
    return passwords
  }

  /**
   * True when the desktop allowed this phone to answer password questions of the agent with roster id
   * `agentId`, and the current roster still lists it as an agent.
   */
  allows(agentId: string): boolean {
    const roster = this.#options.roster()
    return roster !== undefined && this.#allowed.includes(agentId) && findMember(roster, agentId)?.role === 'agent'
  }

  close(): void {
    this.#watch?.stop()
  }

  async #take(entry: KvEntry): Promise<void> {
    const roster = this.#options.roster()
    if (roster === undefined) return
    try {
      const opened = await openDevicePasswords(this.#options.device, entry.value, {
        roster,
        highestVersion: this.#highest,
      })
      // A slower open of an older entry never overrides a newer one taken meanwhile.
      if (opened.version < this.#highest) return
      const newer = opened.version > this.#highest
      this.#highest = opened.version
      this.#allowed = opened.agents
      if (newer) this.#options.onNewVersion(opened.version)
      this.#options.onChange()
    } catch (error) {
      this.#options.onRefused(
        `the desktop's password setting for this phone was refused, so password questions stay refused here: ${describeRelayError(error)}`,
      )
    }
  }
}
