// What the windows are told about the relay itself, as inbox notices from "Relay": that it is
// unreachable (one notice, gone once it is back), an alarm about an answer no desk can verify, and
// a problem that stopped the bridge or will (a roster about to lapse). The wording is shared with the
// phone (shared/relay-notices.ts).
import type { InboxNotice } from '../../shared/ask'
import {
  RELAY_NOTICE_AGENT,
  relayAlarmNotice,
  relayProblemNotice,
  relayUnreachableNotice,
  type RelayNotice,
} from '../../shared/relay-notices'
import type { NoticeBoard } from '../notice-board'

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
    this.#unreachable = this.#add(relayUnreachableNotice(url))
  }

  /** The relay is reachable (again): the unreachable notice goes. */
  reachable(): void {
    if (this.#unreachable) this.#board.remove(this.#unreachable.noticeId)
    this.#unreachable = undefined
  }

  /** An answer on the relay that no desk can verify took an ask's place. */
  alarm(text: string): void {
    this.#add(relayAlarmNotice(text))
  }

  /** Something the person should act on (a lapse ahead, a refusal that stopped the bridge). */
  problem(text: string): void {
    this.#add(relayProblemNotice(text))
  }

  #add({ notice, title }: RelayNotice): InboxNotice {
    return this.#board.add(RELAY_NOTICE_AGENT, notice, title)
  }
}
