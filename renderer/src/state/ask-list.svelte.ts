import { untrack } from 'svelte'
import { agentKey } from '../../../shared/agent-key'
import type { AgentInfo, Ask, AskOrigin } from '../../../shared/ask'
import type { DraftStorage } from '../lib/draft-storage'
import { displayOrder, groupByAgent } from '../lib/group-asks'
import { buildLayout, type InboxLayout } from '../lib/inbox-layout'
import { releaseMarkdown } from '../lib/markdown-cache'
import { CardState, type Settlement } from './card.svelte'

/** An ask on screen, and its card state once anything needs it (most asks of a big inbox never do). */
interface ListedAsk {
  ask: Ask
  card: CardState | undefined
}

/** The ids of the settled cards (a plain set: rows test membership without proxy reads). */
function settledOf(listed: Iterable<ListedAsk>): Set<string> {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
  const ids = new Set<string>()
  for (const { ask, card } of listed) if (card?.settlement) ids.add(ask.askId)
  return ids
}

/** What adding asks to the list changed. */
export interface Added {
  /** Asks new to the list that are not the rest of a bounded snapshot (news to the person). */
  arrived: string[]
  /** At least one of the asks was the rest of a bounded snapshot (the inbox as it was at connect). */
  restOfSnapshot: boolean
}

/**
 * The asks on screen (pending ones, plus settled ones still on screen to say so), each with its
 * `CardState` once the ask is shown, answered or settled (a 10,000-ask inbox makes a few, not 10,000),
 * and their stored drafts: forgetting an ask forgets its draft too. Also the list-wide values the
 * window draws from them (order, groups, layout, the settled ids, the pending count).
 */
export class AskList {
  /**
   * One entry per ask on screen, in arrival order (a snapshot's pending asks first). A plain map: every
   * change to its membership bumps `#version` once (a snapshot of 10,000 asks is one change), and the
   * list-wide values below are derived from it again only then, never on a change of selection.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- made reactive by #version, changed in batches
  readonly #listed = new Map<string, ListedAsk>()
  #version = $state(0)
  #settledVersion = $state(0)
  /** Pending asks plus settled ones still on screen; a new array on every change. */
  readonly asks: Ask[] = $derived.by(() => (this.#version, Array.from(this.#listed.values(), (listed) => listed.ask)))
  readonly groups = $derived(groupByAgent(this.asks))
  /** The ask ids in the order the list shows them. */
  readonly order = $derived(displayOrder(this.groups))
  /** Each ask's index in `order`, so moving to the next or previous ask is O(1). */
  readonly #orderIndex: ReadonlyMap<string, number> = $derived(
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
    new Map(this.order.map((askId, index) => [askId, index])),
  )
  /** The list as rows with offsets, for the windowed list (`lib/inbox-layout.ts`). */
  readonly layout: InboxLayout = $derived(buildLayout(this.groups))
  /** Ids of the settled asks still on screen (a plain set: rows test membership without proxy reads). */
  readonly settledIds: ReadonlySet<string> = $derived.by(
    // Only `settle` settles cards, and it bumps #settledVersion when it does: the cards' own
    // `settlement` is read untracked (10,000 dependencies fewer for every change of the list).
    () => (this.#version, this.#settledVersion, untrack(() => settledOf(this.#listed.values()))),
  )
  readonly pendingCount = $derived.by(() => (this.#version, this.#listed.size - this.settledIds.size))

  readonly #drafts: DraftStorage

  /** `drafts`: where the cards' drafts are kept. */
  constructor(drafts: DraftStorage) {
    this.#drafts = drafts
  }

  /** The oldest pending ask of `agent` (by the one agent key), if it has one on screen. */
  oldestPendingOf(agent: AgentInfo): string | undefined {
    const key = agentKey(agent)
    const group = this.groups.find((candidate) => candidate.key === key)
    return group?.asks.find((ask) => !this.settledIds.has(ask.askId))?.askId
  }

  /** Whether `askId` is listed (untracked: for rules applied while the list changes). */
  has(askId: string): boolean {
    return this.#listed.has(askId)
  }

  /** Where `askId` is in `order`, if listed. */
  indexOf(askId: string): number | undefined {
    return this.#orderIndex.get(askId)
  }

  /** The card state of a listed ask, made the first time it is needed (its draft loads from storage then). */
  card(askId: string): CardState | undefined {
    void this.#version
    const listed = this.#listed.get(askId)
    if (!listed) return undefined
    return (listed.card ??= new CardState(listed.ask, this.#drafts))
  }

  /** The card state of a listed ask only if one was made already (nothing was shown or sent otherwise). */
  madeCard(askId: string): CardState | undefined {
    return this.#listed.get(askId)?.card
  }

  /**
   * Adds asks, as one change however many there are. An ask listed as `gone` (a snapshot did not carry
   * it, but its card held a draft) is pending again: it was only in the rest of a bounded snapshot
   * (docs/protocol.md §9), so it is answerable again, draft and all. An ask already listed takes the
   * copy just received (`ask/added` again for the same askId carries a change, such as a remote secret
   * ask becoming answerable on this desk); its card and draft stay.
   */
  add(asks: readonly Ask[], restUntil: number | undefined): Added {
    const added: Added = { arrived: [], restOfSnapshot: false }
    for (const ask of asks) {
      const listed = this.#listed.get(ask.askId)
      const ofSnapshot = restUntil !== undefined && ask.receivedAt <= restUntil
      added.restOfSnapshot ||= ofSnapshot
      if (!listed) {
        this.#listed.set(ask.askId, { ask, card: undefined })
        if (!ofSnapshot) added.arrived.push(ask.askId)
      } else {
        if (listed.card?.settlement === 'gone') listed.card.settlement = undefined
        // Sent again while pending: the companion changed it (a remote ask became answerable here or not).
        listed.ask = ask
        listed.card?.revise(ask)
      }
    }
    this.#version++
    return added
  }

  /**
   * Lists a snapshot's pending asks, in order, after a (re)connection. Cards no longer pending stay, as
   * `gone`, only if they hold a draft or a notice (a draft may also be in storage only, from before a
   * reload: its card is made to show it); the stored drafts of every other ask are forgotten. No send of
   * this window is in flight on a new connection.
   */
  replace(pending: readonly Ask[]): void {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    const pendingIds = new Set(pending.map((ask) => ask.askId))
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local copy, never rendered
    const previous = new Map(this.#listed)
    const kept: ListedAsk[] = []
    for (const listed of previous.values()) {
      if (pendingIds.has(listed.ask.askId)) continue
      releaseMarkdown(listed.ask.askId)
      if (!listed.card && !this.#drafts.has(listed.ask.askId)) continue
      const card = (listed.card ??= new CardState(listed.ask, this.#drafts))
      if (!card.settlement && !card.hasDraft) continue
      card.settlement ??= 'gone'
      kept.push(listed)
    }
    this.#listed.clear()
    for (const ask of pending) {
      const listed = previous.get(ask.askId)
      // A kept card takes the snapshot's copy: the ask's origin may have changed while disconnected.
      if (listed) {
        listed.ask = ask
        if (listed.card) listed.card.ask = ask
      }
      this.#listed.set(ask.askId, listed ?? { ask, card: undefined })
    }
    for (const listed of kept) this.#listed.set(listed.ask.askId, listed)
    this.#version++
    for (const { card } of this.#listed.values()) card?.sendEnded()
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    this.#drafts.prune(new Set(this.#listed.keys()))
  }

  /**
   * A listed remote ask's new `origin` (`ask/origin`: its agent's presence lapsed or came back); the row
   * and the card show it. Nothing else changes: draft, selection and send state stay.
   */
  setOrigin(askId: string, origin: AskOrigin): void {
    const listed = this.#listed.get(askId)
    if (listed?.ask.kind !== 'question') return
    listed.ask = { ...listed.ask, origin }
    if (listed.card) listed.card.ask = listed.ask
    this.#version++
  }

  /** Marks a card as settled while it stays on screen to say how it ended. */
  settle(card: CardState, outcome: Settlement): void {
    card.settlement = outcome
    card.sending = false
    this.#settledVersion++
  }

  /** Forgets an ask: its card (draft, notices, send state) and its stored draft. */
  remove(askId: string): void {
    this.#drafts.remove(askId)
    if (this.#listed.delete(askId)) this.#version++
    releaseMarkdown(askId)
  }
}
