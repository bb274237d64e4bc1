// The pushes of one asker (an agent, or the desktop mirroring local asks): wake the phones when an ask is
// written, remember which subscriptions turned out gone (for the ask's receipt), and replace the
// notification when the ask ends. All in the background: an ask never waits for a push service, and a
// failed push never fails an ask.
import type { MemberKeys } from '../crypto/keys'
import { MAX_RECIPIENTS, type Receipt, type Roster } from '../crypto/schemas'
import type { NoticeDraft } from './notice'
import { notifyDevices, type GonePush } from './notifier'
import { openPushSection } from './section'

/** What one round of pushes did, for the asker's progress events (never content). */
export interface PushedReport {
  type: 'pushed'
  askId: string
  kind: NoticeDraft['kind']
  /** Pushes the push services took. */
  accepted: number
  /** Subscriptions the push services called gone. */
  gone: number
}

/** The pushes of one asker; one instance per asker. */
export class AskPushes {
  readonly #sender: MemberKeys
  readonly #now: () => number
  // Per open ask: the notice phones were woken with (to settle it by) and the subscriptions found gone.
  readonly #open = new Map<string, { draft: NoticeDraft; gone: GonePush[] }>()

  constructor(sender: MemberKeys, now: () => number) {
    this.#sender = sender
    this.#now = now
  }

  /** Wakes every subscribed phone of `roster` about the ask `draft` describes. Returns at once. */
  asked(roster: Roster, draft: Omit<NoticeDraft, 'kind' | 'created'>, report?: (event: PushedReport) => void): void {
    const entry = { draft: { ...draft, kind: 'ask' as const, created: this.#now() }, gone: [] as GonePush[] }
    this.#open.set(draft.askId, entry)
    void this.#send(roster, entry.draft, report).then((gone) => entry.gone.push(...gone))
  }

  /**
   * The ask `askId` ended as `result`: returns the gone subscriptions known now (for its receipt's
   * `pushGone`; `undefined` when none) and, unless it was asked again under a new id, replaces its
   * notification on every phone, silently, in the background.
   */
  ended(
    askId: string,
    roster: Roster | undefined,
    result: Pick<Receipt, 'outcome' | 'winner'>,
    report?: (event: PushedReport) => void,
  ): GonePush[] | undefined {
    const entry = this.#open.get(askId)
    this.#open.delete(askId)
    if (!entry) return undefined
    if (roster && result.outcome !== 'reasked') {
      const winner = result.winner === undefined ? undefined : roster.members.find((m) => m.id === result.winner)
      const settled: NoticeDraft = {
        ...entry.draft,
        kind: 'settled',
        created: this.#now(),
        ...(winner?.role === 'device' ? { answeredOn: winner.name } : {}),
        ...(result.outcome === 'withdrawn' || result.outcome === 'expired' ? { ended: result.outcome } : {}),
      }
      void this.#send(roster, settled, report)
    }
    return entry.gone.length > 0 ? entry.gone.slice(0, MAX_RECIPIENTS) : undefined
  }

  async #send(roster: Roster, draft: NoticeDraft, report?: (event: PushedReport) => void): Promise<GonePush[]> {
    try {
      const section = await openPushSection(this.#sender, roster)
      if (!section || section.subscriptions.length === 0) return []
      const outcome = await notifyDevices(this.#sender, roster, section, draft)
      const accepted = outcome.results.filter((entry) => entry.result.status === 'accepted').length
      report?.({ type: 'pushed', askId: draft.askId, kind: draft.kind, accepted, gone: outcome.gone.length })
      return outcome.gone
    } catch {
      // No section sealed to this sender yet (the desktop re-seals it at its next roster), or a damaged
      // one: the ask goes on; phones see it when the app opens.
      return []
    }
  }
}
