import { z } from 'zod'
import { AnswerSchema } from './answer'
import { ApprovalDecisionSchema, ApprovalRequestSchema, NoticeSchema } from './approval'
import { AskQuestionSchema } from './question-extras'

/** Who asked, as the person sees it. */
export const AgentInfoSchema = z.object({
  name: z.string(),
  pid: z.number().int().optional(),
  cwd: z.string().optional(),
  title: z.string().optional(),
  /** The harness's session id from `hello` (never shown; it only groups the agent's asks). */
  session: z.string().optional(),
})
export type AgentInfo = z.infer<typeof AgentInfoSchema>

/**
 * Set by the companion alone, never from an agent's frame: the ask comes from this install's askpass
 * helper, found by the companion itself from the connection's peer process (Linux; see
 * core/askpass-mark.ts). `receiver` names the helper's parent from what the kernel says; `verified`
 * is true only when that parent is proven to be sudo, ssh or git. Windows draw the askpass look and
 * the "goes only to" line from this field alone.
 */
export const AskpassMarkSchema = z.object({
  receiver: z.string(),
  verified: z.boolean(),
})
export type AskpassMark = z.infer<typeof AskpassMarkSchema>

/**
 * Set by the companion alone: the ask came through the relay (core/relay-bridge), not from an agent on
 * this machine. The agent's name is the roster's (the name `relay add-agent` gave it), never one the
 * agent declared; `agentId` is its roster member id. `unanswerable` says why no window may answer it
 * here (a remote secret ask: remote passwords are not allowed for this agent); windows show it instead
 * of the form. `unreachableSince` (epoch ms, the agent's last contact the relay stored) is present while
 * the agent's presence has lapsed: windows show "agent unreachable"; the ask stays answerable, and the
 * companion sends `ask/origin` when it changes. Absent on every local ask.
 */
export const AskOriginSchema = z.object({
  kind: z.literal('relay'),
  agentId: z.string(),
  unanswerable: z.string().optional(),
  unreachableSince: z.number().optional(),
})
export type AskOrigin = z.infer<typeof AskOriginSchema>

/** What every pending ask carries, whatever its kind. `askId` is minted by the companion and unique for its lifetime. */
const AskCommon = {
  askId: z.string(),
  agent: AgentInfoSchema,
  title: z.string().optional(),
  /** Epoch milliseconds when the companion received the ask. */
  receivedAt: z.number(),
}

/** An ask with questions (the `ask_user` tool, askpass): the person answers each question. */
export const QuestionAskSchema = z.object({
  ...AskCommon,
  kind: z.literal('question'),
  /** The questions with the contract's fields only (the tool's, `detail`, a plan-review `intent`). */
  questions: z.array(AskQuestionSchema),
  /** Present only on an ask the companion traced to its own askpass helper ({@link AskpassMarkSchema}). */
  askpass: AskpassMarkSchema.optional(),
  /** Present only on a remote ask ({@link AskOriginSchema}); never together with `askpass`. */
  origin: AskOriginSchema.optional(),
})
export type QuestionAsk = z.infer<typeof QuestionAskSchema>

/** An approval (a harness's permission prompt): the person decides, allow or deny; there are no questions. */
export const ApprovalAskSchema = z.object({
  ...AskCommon,
  kind: z.literal('approval'),
  approval: ApprovalRequestSchema,
  /** Present only on another desktop's approval mirrored through the relay ({@link AskOriginSchema}). */
  origin: AskOriginSchema.optional(),
})
export type ApprovalAsk = z.infer<typeof ApprovalAskSchema>

/** A pending ask as windows see it: a question ask or an approval, told apart by `kind`. */
export const AskSchema = z.discriminatedUnion('kind', [QuestionAskSchema, ApprovalAskSchema])
export type Ask = z.infer<typeof AskSchema>
export type AskKind = Ask['kind']

/**
 * How an ask ended: the person answered its questions (`answered`) or decided an approval
 * (`decided`); the person dismissed it (`ASK_CANCELLED`); the agent cancelled it or the companion
 * shut down (`aborted`); the agent's connection went away (`agent-gone`); a remote ask's time ran out
 * before anyone answered (`expired`).
 */
export const OutcomeSchema = z.enum(['answered', 'decided', 'cancelled', 'aborted', 'agent-gone', 'expired'])
export type Outcome = z.infer<typeof OutcomeSchema>

/** What every history entry adds to its ask. */
const SettledCommon = {
  /** Epoch milliseconds when the ask was settled. */
  settledAt: z.number(),
  /**
   * The person's reply never reached the agent: it was sent as the agent's socket closed, or arrived
   * just after (then `outcome` is `agent-gone` and `answers` holds what the person submitted).
   */
  undelivered: z.literal(true).optional(),
  /**
   * The entry was longer than the history keeps (`limits.historyEntryBytes`): its longer texts end in
   * "…", or, when even that was too long, only its envelope is kept (agent, title, times, outcome).
   */
  truncated: z.literal(true).optional(),
}

/** A settled question ask. An envelope-only entry (`truncated`) may have lost its questions. */
export const QuestionHistoryEntrySchema = QuestionAskSchema.extend({
  ...SettledCommon,
  questions: z.array(AskQuestionSchema),
  outcome: OutcomeSchema.exclude(['decided']),
  /** Present when `outcome` is `answered` (or a late answer, `agent-gone` + `undelivered`); never for a secret ask. */
  answers: z.array(AnswerSchema).optional(),
  /** A remote ask answered on another desk: that device's roster name (its answers are not known here). */
  answeredOn: z.string().optional(),
})
export type QuestionHistoryEntry = z.infer<typeof QuestionHistoryEntrySchema>

/** A settled approval; `decision` is present when `outcome` is `decided`. An envelope-only entry has no `approval`. */
export const ApprovalHistoryEntrySchema = ApprovalAskSchema.extend({
  ...SettledCommon,
  approval: ApprovalRequestSchema.optional(),
  outcome: OutcomeSchema.exclude(['answered']),
  /** The person's decision (when `outcome` is `decided`). */
  decision: ApprovalDecisionSchema.optional(),
  /** A mirrored approval decided on another desk: that device's roster name. */
  answeredOn: z.string().optional(),
})
export type ApprovalHistoryEntry = z.infer<typeof ApprovalHistoryEntrySchema>

/** One settled ask, as kept in the history file (one JSON object per line) and sent to windows. */
export const HistoryEntrySchema = z.discriminatedUnion('kind', [QuestionHistoryEntrySchema, ApprovalHistoryEntrySchema])
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>

/** A notice as windows see it: the agent told the person something; there is nothing to answer. */
export const InboxNoticeSchema = z.object({
  noticeId: z.string(),
  agent: AgentInfoSchema,
  title: z.string().optional(),
  notice: NoticeSchema,
  /** Epoch milliseconds when the companion received it. */
  receivedAt: z.number(),
})
export type InboxNotice = z.infer<typeof InboxNoticeSchema>
