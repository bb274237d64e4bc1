// The phone's inbox notices: what the desk refused to show from the relay (a question or receipt that
// does not verify, a roster rollback) raised as "Relay alarm" notices, worded as on the desktop
// (shared/relay-notices.ts). Kept in memory so every snapshot carries them; nothing of an ask's content.
import type { InboxNotice } from '../../../shared/ask'
import {
  RELAY_NOTICE_AGENT,
  refusedOnRelayText,
  relayAlarmNotice,
  relayProblemNotice,
  type RelayNotice,
} from '../../../shared/relay-notices'
import type { DeskRefusal } from '../../../relay/exchange/desk-types'

/** Notices the phone keeps (the oldest beyond this are dropped), as the desktop keeps per agent. */
export const PHONE_NOTICES_KEPT = 20

/** The phone's notice list: alarms added once per refused entry and code, removed when the person clears them. */
export class PhoneNotices {
  readonly #now: () => number
  #notices: InboxNotice[] = []
  // A fresh dial reads the relay again and meets the same refused entry: one alarm for it is enough.
  readonly #raised = new Set<string>()

  constructor(now: () => number) {
    this.#now = now
  }

  /** The alarm for `refusal`, or undefined when this entry was refused with this code before. */
  refused(refusal: DeskRefusal): InboxNotice | undefined {
    const once = `${refusal.key}\n${refusal.code}`
    if (this.#raised.has(once)) return undefined
    this.#raised.add(once)
    return this.#add(relayAlarmNotice(refusedOnRelayText(refusal)))
  }

  /**
   * A notice the person should act on (the relay refused this phone for good), or undefined while one with
   * the same words is still listed: a refused dial after a wake does not say it twice.
   */
  problem(text: string): InboxNotice | undefined {
    const made = relayProblemNotice(text)
    const listed = this.#notices.some((entry) => entry.title === made.title && entry.notice.text === made.notice.text)
    return listed ? undefined : this.#add(made)
  }

  #add({ notice, title }: RelayNotice): InboxNotice {
    const entry: InboxNotice = {
      noticeId: globalThis.crypto.randomUUID(),
      agent: RELAY_NOTICE_AGENT,
      notice,
      title,
      receivedAt: this.#now(),
    }
    this.#notices = [...this.#notices, entry].slice(-PHONE_NOTICES_KEPT)
    return entry
  }

  /** Clears one notice; false when there is none of that id. */
  remove(noticeId: string): boolean {
    const before = this.#notices.length
    this.#notices = this.#notices.filter((notice) => notice.noticeId !== noticeId)
    return this.#notices.length < before
  }

  /** The notices, oldest first. */
  list(): InboxNotice[] {
    return [...this.#notices]
  }
}
