import type { Ask, Outcome } from '../../../shared/ask'
import { hasSecret } from '../../../shared/question-extras'
import { isMultiSelect } from '../../../shared/tool-input'
import { checkForm, type CheckedAnswers, type FormCheck } from '../lib/answer-form'
import { EMPTY_QUESTION_DRAFT, draftHasContent, type AskDraft, type QuestionDraft } from '../lib/draft'
import type { DraftStorage } from '../lib/draft-storage'

/** How an ask shown on screen stopped being pending; `gone` = it vanished while we were disconnected. */
export type Settlement = Outcome | 'gone'

/**
 * Everything the window knows about one ask on screen: the ask itself, the person's draft (mirrored to
 * a `DraftStorage` on every edit), whether this window's answer or dismissal is in flight, the
 * companion's last refusal, and how the ask settled if it is no longer pending. The inbox keeps one per
 * ask, so forgetting an ask forgets all of it at once.
 */
export class CardState {
  /** The ask as the companion last sent it (a remote ask's `origin` follows its agent's presence and this desk's password setting). */
  ask: Ask = $state.raw() as unknown as Ask
  /** Set once the ask is no longer pending while still on screen (to say how it ended). */
  settlement = $state<Settlement | undefined>()
  /** A remote ask answered on another desk of the person: that device's name (with `settlement` answered). */
  answeredOn = $state<string | undefined>()
  /** This window sent an answer or dismissal and awaits `accepted` or `rejected`. */
  sending = $state(false)
  /** The companion's reason for refusing this window's last answer or dismissal. */
  rejection = $state<string | undefined>()
  /** The person tried to send with unanswered questions (their hints show from then on). */
  attempted = $state(false)
  /** The last send was refused because the window was not connected (nothing was sent). */
  offline = $state(false)
  /** The person's unsent draft, one entry per question index (missing entries are untouched). */
  draft = $state<AskDraft>([])
  /**
   * A `ask/settled` outcome that arrived while this window's own send was in flight: it may be
   * another window's, and tells how the ask ended if the companion then refuses ours as `NOT_PENDING`.
   * Never rendered.
   */
  outcomeWhileSending: Outcome | undefined = undefined
  /** True when the person has picked, typed or skipped anything (a draft worth keeping). */
  readonly hasDraft = $derived(draftHasContent(this.draft))
  /** The answers the draft makes and what the answer rules say about them; the window's only check. */
  readonly check: FormCheck = $derived.by(() =>
    checkForm(this.ask.kind === 'question' ? this.ask.questions : [], this.draft),
  )

  readonly #storage: DraftStorage
  readonly #secret: boolean

  /** Starts from the draft `storage` holds for this ask, if any (a reload keeps drafts). */
  constructor(ask: Ask, storage: DraftStorage) {
    this.ask = ask
    this.#storage = storage
    // A secret ask's draft lives in memory only: never mirrored to (nor read from) sessionStorage.
    this.#secret = hasSecret(ask)
    this.draft = this.#secret ? [] : (storage.load(ask.askId) ?? [])
  }

  /** Takes the companion's newer copy of this very ask (same `askId`); the draft stays. */
  revise(ask: Ask): void {
    if (ask.askId === this.ask.askId) this.ask = ask
  }

  /** The ask's id, the card's key in the inbox. */
  get askId(): string {
    return this.ask.askId
  }

  /** No longer editable or sendable: settled, or this window's send is in flight. */
  get locked(): boolean {
    return this.settlement !== undefined || this.sending
  }

  /**
   * Starts a send of this window (answer, decision or dismissal): false, and the card marked offline,
   * when the window is not connected (nothing may be sent then).
   */
  startSend(connected: boolean): boolean {
    this.offline = !connected
    if (!connected) return false
    this.rejection = undefined
    this.sending = true
    return true
  }

  /** No send of this window is in flight any more (a new connection: its replies will not come). */
  sendEnded(): void {
    this.sending = false
    this.outcomeWhileSending = undefined
  }

  /**
   * The companion refused this window's send: returns how the ask ended when it did (the settlement
   * that raced ours, or `gone` for `NOT_PENDING`); otherwise the card shows `reason` and stays pending.
   */
  sendRefused(code: string, reason: string): Settlement | undefined {
    const raced = this.outcomeWhileSending
    this.sendEnded()
    if (raced) return raced
    if (code === 'NOT_PENDING') return 'gone'
    this.rejection = reason
    return undefined
  }

  /**
   * The person asked to send: the checked answers when the form may be sent; otherwise undefined, and
   * unless the card is locked it is marked attempted (hints for unanswered questions show from now on).
   */
  attemptSend(): CheckedAnswers | undefined {
    if (this.locked) return undefined
    const ready = this.check.ready
    if (!ready) this.attempted = true
    return ready
  }

  /** One question's draft (an empty one when untouched). */
  questionDraft(index: number): QuestionDraft {
    return this.draft[index] ?? EMPTY_QUESTION_DRAFT
  }

  /**
   * Picks an option: toggles it in a multi-select; in a single-select it becomes the only pick and
   * replaces any text of the person's own (one answer or the other). Any pick undoes a skip.
   */
  pick(index: number, label: string): void {
    const multi = this.#multi(index)
    this.#edit(index, (draft) => {
      draft.skipped = false
      if (multi) {
        draft.selected = draft.selected.includes(label)
          ? draft.selected.filter((picked) => picked !== label)
          : [...draft.selected, label]
      } else {
        draft.selected = [label]
        draft.custom = ''
      }
    })
  }

  /** Sets the free-form text; in a single-select, non-blank text clears the pick. Typing undoes a skip. */
  setCustom(index: number, text: string): void {
    const multi = this.#multi(index)
    this.#edit(index, (draft) => {
      draft.custom = text
      if (text.trim() === '') return
      draft.skipped = false
      if (!multi) draft.selected = []
    })
  }

  /** Turns "Skip this question" on or off. */
  toggleSkip(index: number): void {
    this.#edit(index, (draft) => {
      draft.skipped = !draft.skipped
    })
  }

  /** Forgets the stored draft (the ask was sent, closed or is no longer pending). */
  forgetDraft(): void {
    this.#storage.remove(this.askId)
  }

  #multi(index: number): boolean {
    const question = this.ask.kind === 'question' ? this.ask.questions[index] : undefined
    return question !== undefined && isMultiSelect(question)
  }

  #edit(index: number, change: (draft: QuestionDraft) => void): void {
    while (this.draft.length <= index) this.draft.push({ selected: [], custom: '', skipped: false })
    change(this.draft[index]!)
    if (!this.#secret) this.#storage.save(this.askId, $state.snapshot(this.draft))
  }
}
