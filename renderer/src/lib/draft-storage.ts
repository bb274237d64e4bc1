import { parseDraft, type AskDraft } from './draft'

const PREFIX = 'ask-user.draft.'

/** Storage key of an ask's draft. */
export function draftKey(askId: string): string {
  return PREFIX + askId
}

/**
 * Where the person's unsent drafts outlive the page: one JSON entry per askId in `storage`
 * (sessionStorage in the app: a reload keeps them, another tab does not see them). Without a storage,
 * or when it throws (quota, private mode), drafts live in memory only and every call is a no-op.
 */
export class DraftStorage {
  readonly #storage: Storage | undefined
  /**
   * The askIds that have a stored draft, read from the storage once: a snapshot of 10,000 asks then
   * looks up 10,000 ids in a set, not in the storage. Only this page writes its sessionStorage.
   */
  #stored: Set<string> | undefined

  /** `storage` none = drafts are not persisted. */
  constructor(storage?: Storage) {
    this.#storage = storage
  }

  /**
   * The stored draft of an ask; undefined when there is none, or when it is not a well-formed draft
   * (`QuestionDraftSchema`): that one is dropped from storage, and the card starts empty.
   */
  load(askId: string): AskDraft | undefined {
    try {
      if (!this.#storedIds().has(askId)) return undefined
      const draft = parseDraft(this.#storage?.getItem(draftKey(askId)) ?? null)
      if (draft === undefined) this.remove(askId)
      return draft
    } catch {
      return undefined
    }
  }

  /** True when a draft of the ask is stored. */
  has(askId: string): boolean {
    try {
      return this.#storedIds().has(askId)
    } catch {
      return false
    }
  }

  /** Stores an ask's draft (a plain value, not a reactive proxy), replacing the previous one. */
  save(askId: string, draft: AskDraft): void {
    try {
      this.#storage?.setItem(draftKey(askId), JSON.stringify(draft))
      this.#stored?.add(askId)
    } catch {
      // quota or private mode: the draft still lives in memory
    }
  }

  /** Forgets an ask's draft (it was sent or the ask is settled). */
  remove(askId: string): void {
    try {
      if (!this.#storedIds().has(askId)) return
      this.#storage?.removeItem(draftKey(askId))
      this.#stored?.delete(askId)
    } catch {
      // storage unavailable: nothing to clean
    }
  }

  /** Forgets every stored draft whose ask is not in `keep`. */
  prune(keep: ReadonlySet<string>): void {
    const storage = this.#storage
    if (!storage) return
    try {
      const stale: string[] = []
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)
        if (key?.startsWith(PREFIX) && !keep.has(key.slice(PREFIX.length))) stale.push(key)
      }
      // Removed after the scan: removing shifts the indices `key(i)` walks.
      for (const key of stale) {
        storage.removeItem(key)
        this.#stored?.delete(key.slice(PREFIX.length))
      }
    } catch {
      // storage unavailable: nothing to clean
    }
  }

  #storedIds(): ReadonlySet<string> {
    if (this.#stored) return this.#stored
    const ids = new Set<string>()
    const storage = this.#storage
    if (storage) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)
        if (key?.startsWith(PREFIX)) ids.add(key.slice(PREFIX.length))
      }
    }
    return (this.#stored = ids)
  }
}
