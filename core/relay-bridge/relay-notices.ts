// What the windows are told about the relay itself, as inbox notices from "Relay": that it is
// unreachable (one notice, gone once it is back), an alarm about an answer no desk can verify, and
// a problem that stopped the bridge or will (a roster about to lapse).
import type { InboxNotice } from '../../shared/ask'
import type { NoticeBoard } from '../notice-board'

/** The sender of the relay's notices in every window. */
export const RELAY_NOTICE_AGENT = { name: 'Relay' } as const

/** The relay's notices on one companion's board. */
export class RelayNotices {
  readonly #board: NoticeBoard
  #unreachable: InboxNotice | undefined

  constructor(board: NoticeBoard) {
    this.#board = board
  }

  /** The relay cannot be reached (shown once until it is back). */
  unreachable(url: string): void {
    if (this.#unreachable && this.#board.list().includes(this.#unreachable)) return
    this.#unreachable = this.#board.add(
      RELAY_NOTICE_AGENT,
      {
        kind: 'info',
        text: `The relay at ${url} is unreachable. Agents on this machine are not affected; remote asks stay listed and can be answered once it is back.`,
      },
      'Relay unreachable',
    )
  }

  /** The relay is reachable (again): the unreachable notice goes. */
  reachable(): void {
    if (this.#unreachable) this.#board.remove(this.#unreachable.noticeId)
    this.#unreachable = undefined
  }

  /** An answer on the relay that no desk can verify took an ask's place. */
  alarm(text: string): void {
    this.#board.add(RELAY_NOTICE_AGENT, { kind: 'info', text: `Alarm: ${text}` }, 'Relay alarm')
  }

  /** Something the person should act on (a lapse ahead, a refusal that stopped the bridge). */
  problem(text: string): void {
    this.#board.add(RELAY_NOTICE_AGENT, { kind: 'info', text }, 'Relay')
  }
}
