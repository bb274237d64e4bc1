// What a desk shows and reports: the shapes RelayDesk's listeners and answers carry (relay-desk.ts).
import type {
  Member,
  MemberKeys,
  QuestionHeader,
  RelayCryptoCode,
  ReceiptOutcome,
  Roster,
  SignedRoster,
} from '../crypto'
import type { ApprovalRequest } from '../../shared/approval'
import type { Question } from '../../shared/tool-input'
import type { TimerHandle } from './delay'
import type { QuestionRefusal } from './desk-question'
import type { QuestionOpener } from './question-opener'
import type { RelayLink } from './relay-link'

/**
 * A remote ask waiting for the person. `agent` is the roster's name for the asking agent, never
 * self-declared; for a local ask a desktop mirrors, "<the local agent's name> on <the desktop's roster
 * name>" (desk-question.ts `mirroredName`), with the desktop's member id.
 */
export interface RemoteAsk {
  /** `q.<agent>.<askId>`: the ask's identity on every desk. */
  readonly key: string
  readonly askId: string
  readonly agent: { readonly name: string; readonly id: string }
  /** The questions to answer; empty for an approval. */
  readonly questions: readonly Question[]
  /**
   * Present on a mirrored approval (a permission prompt of the desktop's local agent), exactly as that
   * desktop's windows get it: decided with {@link RelayDesk.decide}, never answered.
   */
  readonly approval?: ApprovalRequest
  readonly title?: string
  /** The ask this one replaces (asked again after an unverifiable answer took that one's key). */
  readonly previousAskId?: string
  /** When the agent stops waiting (ms since the epoch), if it said. */
  readonly expiresAt?: number
  /** The longest custom answer or deny reason the asker takes, if it said (the desk refuses longer ones). */
  readonly maxCustomChars?: number
}

/** How a pending ask left the list: the agent's receipt, or its expiry passing on this desk's clock. */
export interface RemoteAskSettled {
  readonly key: string
  readonly outcome: ReceiptOutcome
  /** For `delivered`: the member whose answer the agent took. */
  readonly winner?: Member
  /** For `reasked`: the ask id that replaces this one. */
  readonly next?: string
  /** Push subscriptions the agent found gone (404/410) while waking phones: the desktop drops them (relay/push). */
  readonly pushGone?: readonly { readonly device: string; readonly endpoint: string }[]
}

/** The result of {@link RelayDesk.answer}. */
export type AnswerResult =
  | { readonly won: true }
  /** Another device answered first; `winner` is verified from the stored answer. */
  | { readonly won: false; readonly winner: Member }
  /** An answer that does not verify holds the key: raise the alarm; the agent asks again under a new id. */
  | { readonly won: false; readonly winner: undefined; readonly alarm: RelayCryptoCode }

/** Something on the relay this desk refused to show, and where (for the alarm and the log; never content). */
export interface DeskRefusal extends QuestionRefusal {
  readonly key: string
}

/** What a desk needs: a link made with this device's credential, its member keys and the pinned root key. */
export interface RelayDeskOptions {
  link: RelayLink
  device: MemberKeys
  rootPublicKey: string
  highestSeenRosterVersion?: number
  now?: () => number
  /** Where question envelopes are opened (default: this thread; see question-opener.ts). */
  opener?: QuestionOpener
  onRefused?: (refusal: DeskRefusal) => void
  /** Hears every roster the desk accepts (verified, never older than the highest seen), with its signed bytes. */
  onRosterAccepted?: (roster: Roster, signed: SignedRoster) => void
  /** How long without contact before an agent is marked unreachable (default 90 s, the bucket's max_age). */
  presenceLapseMs?: number | undefined
}

/** A listed ask as the desk keeps it: what it shows, what answers bind to, and its expiry timer. */
export interface PendingEntry {
  ask: RemoteAsk
  header: QuestionHeader
  qHash: string
  expiry?: TimerHandle
}
