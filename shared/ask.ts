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

/** A pending ask as windows see it. `askId` is minted by the companion and unique for its lifetime. */
export const AskSchema = z.object({
  askId: z.string(),
  agent: AgentInfoSchema,
  title: z.string().optional(),
  /** The questions with the contract's fields only (the tool's, `detail`, a plan-review `intent`). */
  questions: z.array(AskQuestionSchema),
  /** Present on an approval (a permission prompt); its `questions` is then empty. */
  approval: ApprovalRequestSchema.optional(),
  /** Present only on an ask the companion traced to its own askpass helper ({@link AskpassMarkSchema}). */
  askpass: AskpassMarkSchema.optional(),
  /** Epoch milliseconds when the companion received the ask. */
  receivedAt: z.number(),
})
export type Ask = z.infer<typeof AskSchema>

/**
 * How an ask ended: the person answered; the person dismissed it (`ASK_CANCELLED`); the agent
 * cancelled it or the companion shut down (`aborted`); the agent's connection went away (`agent-gone`).
 */
export const OutcomeSchema = z.enum(['answered', 'cancelled', 'aborted', 'agent-gone'])
export type Outcome = z.infer<typeof OutcomeSchema>

/** One settled ask, as kept in the history file (one JSON object per line). */
export const HistoryEntrySchema = AskSchema.extend({
  outcome: OutcomeSchema,
  /** Epoch milliseconds when the ask was settled. */
  settledAt: z.number(),
  /** Present when `outcome` is `answered`. */
  answers: z.array(AnswerSchema).optional(),
  /** Present when an approval was `answered`: the person's decision. */
  decision: ApprovalDecisionSchema.optional(),
  /**
   * The person's answer never reached the agent: it was sent as the agent's socket closed, or arrived
   * just after (then `outcome` is `agent-gone` and `answers` holds what the person submitted).
   */
  undelivered: z.literal(true).optional(),
  /**
   * The entry was longer than the history keeps (`limits.historyEntryBytes`): its longer texts end in
   * "…", or, when even that was too long, only its envelope is kept (agent, title, times, outcome).
   */
  truncated: z.literal(true).optional(),
})
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
