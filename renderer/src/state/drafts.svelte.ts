import { EMPTY_QUESTION_DRAFT, draftHasContent, parseDraft, type AskDraft, type QuestionDraft } from '../lib/draft'

const PREFIX = 'ask-user.draft.'

/** Storage key of an ask's draft. */
export function draftKey(askId: string): string {
  return PREFIX + askId
}

/**
 * The person's unsent drafts, per askId and question index, mirrored to `storage` (sessionStorage in
 * the app: a reload keeps them, another tab does not see them). Every edit is saved at once; `remove`
 * and `prune` drop drafts of asks that are settled.
 */
export class DraftStore {
  #drafts = $state<Record<string, AskDraft>>({})
  readonly #storage: Storage | undefined

  constructor(storage?: Storage) {
    this.#storage = storage
    if (!storage) return
    const loaded: Record<string, AskDraft> = {}
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i)
      if (!key?.startsWith(PREFIX)) continue
      const draft = parseDraft(storage.getItem(key))
      if (draft) loaded[key.slice(PREFIX.length)] = draft
    }
    this.#drafts = loaded
  }

  /** The whole draft of an ask, if any. */
  get(askId: string): AskDraft | undefined {
    return this.#drafts[askId]
  }

  /** One question's draft (an empty one when untouched). */
  question(askId: string, index: number): QuestionDraft {
    return this.#drafts[askId]?.[index] ?? EMPTY_QUESTION_DRAFT
  }

  /** True when the person has put anything into this ask. */
  hasContent(askId: string): boolean {
    return draftHasContent(this.#drafts[askId])
  }

  /**
   * Picks an option: toggles it in a multi-select; in a single-select it becomes the only pick and
   * replaces any text of the person's own (one answer or the other). Any pick undoes a skip.
   */
  pick(askId: string, index: number, label: string, multi: boolean): void {
    this.#edit(askId, index, (draft) => {
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
  setCustom(askId: string, index: number, text: string, multi: boolean): void {
    this.#edit(askId, index, (draft) => {
      draft.custom = text
      if (text.trim() === '') return
      draft.skipped = false
      if (!multi) draft.selected = []
    })
  }

  /** Turns "Skip this question" on or off. */
  toggleSkip(askId: string, index: number): void {
    this.#edit(askId, index, (draft) => {
      draft.skipped = !draft.skipped
    })
  }

  /** Forgets an ask's draft (it was sent or the ask is settled). */
  remove(askId: string): void {
    if (askId in this.#drafts) delete this.#drafts[askId]
    try {
      this.#storage?.removeItem(draftKey(askId))
    } catch {
      // storage unavailable: nothing to clean
    }
  }

  /** Forgets every draft whose ask is not in `keep`. */
  prune(keep: ReadonlySet<string>): void {
    for (const askId of Object.keys(this.#drafts)) if (!keep.has(askId)) this.remove(askId)
  }

  #edit(askId: string, index: number, change: (draft: QuestionDraft) => void): void {
    // Read back after assigning: $state stores a proxy of the new array, not the array itself.
    if (!this.#drafts[askId]) this.#drafts[askId] = []
    const draft = this.#drafts[askId]!
    while (draft.length <= index) draft.push({ selected: [], custom: '', skipped: false })
    change(draft[index]!)
    try {
      this.#storage?.setItem(draftKey(askId), JSON.stringify($state.snapshot(draft)))
    } catch {
      // quota or private mode: the draft still lives in memory
    }
  }
}
