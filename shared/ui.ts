import { z } from 'zod'
import { AnswerSchema } from './answer'
import { ApprovalDecisionSchema } from './approval'
import { AskOriginSchema, AskSchema, HistoryEntrySchema, InboxNoticeSchema, OutcomeSchema } from './ask'
import { ConnectInfoSchema } from './connect'
import { RelayStateFrameSchema } from './relay-state'

/**
 * UI channel v2 between the companion and a window (`/v1/ui` over WebSocket, or Electron IPC), the
 * legacy form with the window credential in a `token.` subprotocol (scripts). The frames below are v2's;
 * v1 (`ask-user.ui.v1`, deprecated) is translated at the companion's edge (core/ui-v1.ts).
 */
export const UI_SUBPROTOCOL = 'ask-user.ui.v2'
/** Path of the UI channel. */
export const UI_PATH = '/v1/ui'
/**
 * Query a UI client adds to {@link UI_PATH} (`/v1/ui?secrets=masked`) to declare that it masks secret
 * questions; without it, it is never sent one. A compatibility switch, not a security boundary.
 */
export const SECRETS_MASKED_QUERY = 'secrets=masked'
/**
 * Frame types that change who may answer (pairing a device, removing one, relay settings, mirroring
 * local asks elsewhere, allowing a remote agent's password questions). A window credential lets a page
 * or script answer; it never lets it hand that power on: these are refused from every UI-channel window (`ask/rejected FORBIDDEN`), and are taken
 * only from the desktop app's own window (its privileged IPC) or from `ask-user` in a terminal.
 */
export const ANSWERER_CHANGES: ReadonlySet<string> = new Set([
  'devices/pair',
  // Pairing a phone (the desktop window's IPC channels of the same names: shared/ipc-channels.ts).
  'phone/pair-start',
  'phone/pair-decide',
  'devices/remove',
  'relay/settings',
  'relay/mirror-local',
  'relay/remote-passwords',
])
/** Prefix of the second subprotocol that carries the window credential (the legacy UI subprotocol). */
export const TOKEN_SUBPROTOCOL_PREFIX = 'token.'

// companion → window
/** The inbox as it is when the window attaches (and after every reconnect). */
export const SnapshotFrameSchema = z.object({
  type: z.literal('snapshot'),
  pending: z.array(AskSchema),
  /** How agents on this machine run `ask-user` (for "Connect an agent"); absent when the host does not know. */
  connect: ConnectInfoSchema.optional(),
  /** The latest notices, oldest first (bounded; absent when there are none). */
  notices: z.array(InboxNoticeSchema).optional(),
  /**
   * Present when the snapshot is bounded (docs/protocol.md §9): the `receivedAt` of the newest ask that
   * follows as the snapshot's rest. An `ask/added` of an ask received up to then is part of the
   * inbox as it was at connect, not a new arrival.
   */
  restUntil: z.number().optional(),
})
/** A new notice from an agent (nothing to answer; a window shows it until the person clears it). */
export const NoticeAddedFrameSchema = z.object({ type: z.literal('notice/added'), notice: InboxNoticeSchema })
/** A notice left the inbox (a window cleared it, or the per-agent / total cap dropped it). */
export const NoticeRemovedFrameSchema = z.object({ type: z.literal('notice/removed'), noticeId: z.string() })
/** A new pending ask (or, after a bounded snapshot, one of the inbox's rest: see `restUntil`). */
export const AskAddedFrameSchema = z.object({ type: z.literal('ask/added'), ask: AskSchema })
/**
 * A pending remote ask's `origin` changed (its agent became unreachable, or reachable again): windows
 * replace the ask's origin. Nothing else of the ask changes, and it stays pending.
 */
export const AskOriginFrameSchema = z.object({
  type: z.literal('ask/origin'),
  askId: z.string(),
  origin: AskOriginSchema,
})
/** A pending ask left the inbox, and how; a decided approval carries the person's `decision`. */
export const AskSettledFrameSchema = z.object({
  type: z.literal('ask/settled'),
  askId: z.string(),
  outcome: OutcomeSchema,
  /** Present when `outcome` is `decided`. */
  decision: ApprovalDecisionSchema.optional(),
  /**
   * A remote ask answered (or a mirrored approval decided) on another desk of the person: that device's
   * name in the roster (its reply is the one the agent took). Absent when this companion's windows replied.
   */
  answeredOn: z.string().optional(),
})
/** How a window's own send settled its ask: `answered` for `ask/answer`, `decided` for `ask/decide`, `cancelled` for `ask/dismiss`. */
export const AcceptedOutcomeSchema = OutcomeSchema.extract(['answered', 'decided', 'cancelled'])
/** Reply to this window's `ask/answer`, `ask/decide` or `ask/dismiss`: the ask is settled, and how. */
export const AcceptedFrameSchema = z.object({
  type: z.literal('ask/accepted'),
  askId: z.string(),
  outcome: AcceptedOutcomeSchema,
  /** The ask is settled but its agent's socket closed as the answer was sent: it is kept in history only. */
  undelivered: z.literal(true).optional(),
})
/**
 * Why the companion refused a window's frame. `FORBIDDEN`: the frame would change who may answer
 * ({@link ANSWERER_CHANGES}), which no UI-channel frame may do; or it answers or dismisses a remote ask
 * no window may answer or dismiss here (shared/ask.ts `origin`).
 */
export const RejectionCodeSchema = z.enum(['NOT_PENDING', 'INVALID_ANSWER', 'INVALID_FRAME', 'FORBIDDEN'])
export type RejectionCode = z.infer<typeof RejectionCodeSchema>
/**
 * Reply to a window's frame that was refused. `askId` names what the frame was about: the ask, the
 * notice of a `notice/dismiss`, or '' when the frame named neither (it could not be read).
 */
export const RejectedFrameSchema = z.object({
  type: z.literal('ask/rejected'),
  askId: z.string(),
  code: RejectionCodeSchema,
  /** Human-readable reason, shown to the person. */
  reason: z.string(),
})
/**
 * One page of the history, newest first, at most `limits.historyPageBytes` long. `more`: older entries
 * may follow; ask for them with `history/get` and `before` set to the last entry's `askId`.
 */
export const HistoryFrameSchema = z.object({
  type: z.literal('history'),
  entries: z.array(HistoryEntrySchema),
  more: z.boolean().optional(),
})
export const UiServerFrameSchema = z.discriminatedUnion('type', [
  SnapshotFrameSchema,
  AskAddedFrameSchema,
  AskOriginFrameSchema,
  AskSettledFrameSchema,
  NoticeAddedFrameSchema,
  NoticeRemovedFrameSchema,
  AcceptedFrameSchema,
  RejectedFrameSchema,
  HistoryFrameSchema,
  RelayStateFrameSchema,
])
export type SnapshotFrame = z.infer<typeof SnapshotFrameSchema>
export type AskAddedFrame = z.infer<typeof AskAddedFrameSchema>
export type AskOriginFrame = z.infer<typeof AskOriginFrameSchema>
export type AskSettledFrame = z.infer<typeof AskSettledFrameSchema>
export type NoticeAddedFrame = z.infer<typeof NoticeAddedFrameSchema>
export type NoticeRemovedFrame = z.infer<typeof NoticeRemovedFrameSchema>
export type AcceptedOutcome = z.infer<typeof AcceptedOutcomeSchema>
export type AcceptedFrame = z.infer<typeof AcceptedFrameSchema>
export type RejectedFrame = z.infer<typeof RejectedFrameSchema>
export type HistoryFrame = z.infer<typeof HistoryFrameSchema>
export type UiServerFrame = z.infer<typeof UiServerFrameSchema>

// window → companion
/** The person's answers to a question ask; replied `ask/accepted` (`answered`) or `ask/rejected`. */
export const UiAnswerFrameSchema = z.object({
  type: z.literal('ask/answer'),
  askId: z.string(),
  answers: z.array(AnswerSchema),
})
/** The person's decision on an approval; replied `ask/accepted` (`decided`) or `ask/rejected`. */
export const UiDecideFrameSchema = z.object({
  type: z.literal('ask/decide'),
  askId: z.string(),
  decision: ApprovalDecisionSchema,
})
/** The person dismisses an ask (the agent gets `ASK_CANCELLED`); replied `ask/accepted` (`cancelled`) or `ask/rejected`. */
export const UiDismissFrameSchema = z.object({ type: z.literal('ask/dismiss'), askId: z.string() })
/** Clears one notice from every window; answered with the broadcast `notice/removed` (or `ask/rejected NOT_PENDING`). */
export const UiNoticeDismissFrameSchema = z.object({ type: z.literal('notice/dismiss'), noticeId: z.string() })
/**
 * Asks for one page of settled asks, newest first; answered with one `history` frame. Without `before`:
 * the newest page; with it: the page after that entry (the `askId` of the last entry of the page before).
 */
export const UiHistoryRequestFrameSchema = z.object({
  type: z.literal('history/get'),
  limit: z.number().int().min(1).max(1000).optional(),
  before: z.string().max(200).optional(),
})
export const UiClientFrameSchema = z.discriminatedUnion('type', [
  UiAnswerFrameSchema,
  UiDecideFrameSchema,
  UiDismissFrameSchema,
  UiNoticeDismissFrameSchema,
  UiHistoryRequestFrameSchema,
])
export type UiAnswerFrame = z.infer<typeof UiAnswerFrameSchema>
export type UiDecideFrame = z.infer<typeof UiDecideFrameSchema>
export type UiDismissFrame = z.infer<typeof UiDismissFrameSchema>
export type UiNoticeDismissFrame = z.infer<typeof UiNoticeDismissFrameSchema>
export type UiHistoryRequestFrame = z.infer<typeof UiHistoryRequestFrameSchema>
export type UiClientFrame = z.infer<typeof UiClientFrameSchema>
