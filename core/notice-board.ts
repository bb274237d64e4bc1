import { randomUUID } from 'node:crypto'
import { agentKey } from '../shared/agent-key'
import type { Notice } from '../shared/approval'
import type { AgentInfo, InboxNotice } from '../shared/ask'
import { errorMessage } from '../shared/describe-error'
import { Listeners } from '../shared/listeners'

/** Notices kept per agent (shared/agent-key.ts): the oldest beyond this are dropped. */
export const NOTICES_PER_AGENT = 20
/** Notices kept in the whole companion. */
export const NOTICES_TOTAL = 200

/** What happened to the board: a notice came, or one left (cleared by the person, or dropped by a cap). */
export type NoticeChange = { added: InboxNotice } | { removed: string }

/**
 * The inbox's notices, oldest first: things agents told the person that need no answer (waiting for
 * input, turn complete). They are not asks: nothing waits on them, they do not count as pending, and
 * they outlive the connection that sent them (a hook sends one and exits). Bounded per agent and in
 * total; a window clears them one by one. In memory only: a restarted companion starts with none.
 */
export class NoticeBoard {
  private readonly notices = new Map<string, InboxNotice>()
  private readonly listeners: Listeners<[change: NoticeChange]>

  constructor(
    private readonly now: () => number,
    warn: (message: string) => void,
  ) {
    this.listeners = new Listeners((error) => warn(`notice listener failed: ${errorMessage(error)}`))
  }

  /** The notices, oldest first. */
  list(): InboxNotice[] {
    return [...this.notices.values()]
  }

  /** Keeps a checked notice, drops what the caps no longer allow, and tells the listeners. */
  add(agent: AgentInfo, notice: Notice, title: string | undefined): InboxNotice {
    const entry: InboxNotice = { noticeId: randomUUID(), agent, notice, receivedAt: this.now() }
    if (title !== undefined) entry.title = title
    this.notices.set(entry.noticeId, entry)
    this.tell({ added: entry })
    const key = agentKey(agent)
    const mine = this.list().filter((n) => agentKey(n.agent) === key)
    for (const old of mine.slice(0, Math.max(0, mine.length - NOTICES_PER_AGENT))) this.remove(old.noticeId)
    for (const old of this.list().slice(0, Math.max(0, this.notices.size - NOTICES_TOTAL))) this.remove(old.noticeId)
    return entry
  }

  /** The person cleared a notice; false when there is no such notice. */
  remove(noticeId: string): boolean {
    if (!this.notices.delete(noticeId)) return false
    this.tell({ removed: noticeId })
    return true
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: NoticeChange) => void): () => void {
    return this.listeners.add(listener)
  }

  private tell(change: NoticeChange): void {
    this.listeners.emit(change)
  }
}
