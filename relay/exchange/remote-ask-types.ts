// The surface of one remote ask: what an asker needs, what one ask takes, what it reports on the way.
import type { Member, MemberKeys, Receipt, RelayCryptoCode } from '../crypto'
import type { PushedReport } from '../push/ask-pushes'
import type { RelayLink } from './relay-link'

/** How many times one ask is asked again after answers it could not verify took its answer key. */
export const MAX_REASKS = 3
/** How long a receipt write may keep retrying before the agent gives up on it (the answer is already taken). */
export const RECEIPT_WRITE_MS = 10_000

/** What the asker reports along the way (for logs and the CLI's progress line); never ask content. */
export type RemoteAskEvent =
  | { type: 'asked'; askId: string; previousAskId?: string }
  | {
      type: 'answer-refused'
      askId: string
      code: RelayCryptoCode | 'ANSWER_RULES' | 'ALWAYS_NOT_REMOTE'
      message: string
    }
  | { type: 'answered'; askId: string; device: Member }
  | { type: 'receipt-unwritten'; askId: string; outcome: Receipt['outcome'] }
  /** Phones were woken or their notification replaced (Web Push, relay/push). */
  | PushedReport

/** Options of one ask. */
export interface RemoteAskOptions {
  /** Withdraws the ask (`ASK_WITHDRAWN`); devices are told with a `withdrawn` receipt. */
  signal?: AbortSignal
  /** Gives up after this long (`ASK_TIMEOUT`, or `RELAY_LOST` when the relay is unreachable then). */
  timeoutMs?: number
  title?: string
  /** Only for a desktop mirroring a local ask: the local agent's name (see RemoteQuestionBodySchema). */
  mirroredFor?: string
  /** The longest custom answer taken (see RemoteQuestionBodySchema); a longer one is refused like a broken one. */
  maxCustomChars?: number
  /** The ask id of the first round (a fresh random token by default), so the caller knows it before the write. */
  askId?: string
  onEvent?: (event: RemoteAskEvent) => void
}

/** What a {@link RemoteAsker} needs: a link made with the agent's credential, its keys, the pinned root key. */
export interface RemoteAskerOptions {
  link: RelayLink
  /** The agent's member keys; `member.name` is its credential's name (the `<agent>` of its keys). */
  agent: MemberKeys
  /** The root public key pinned at pairing (base64url). */
  rootPublicKey: string
  /** The highest roster version this agent has seen before (a rollback below it is refused). */
  highestSeenRosterVersion?: number
  /**
   * The token its keys go under: its credential's name. An agent's is `agent.member.name` (the
   * default); a desktop mirroring local asks writes under its credential's name, its member id.
   */
  keyToken?: string
  now?: () => number
  /** How often a waiting ask refreshes the agent's presence (default 30 s; tests shorten it). */
  presenceRefreshMs?: number | undefined
}
