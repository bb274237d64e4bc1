import { z } from 'zod'
import { AnswerSchema } from './answer'
import { ApprovalDecisionSchema } from './approval'
import { ErrorCodeSchema } from './error-codes'

/** Wire protocol v1 between an agent process and the companion (`/v1/agent`). */
export const PROTOCOL_VERSION = 1
/** WebSocket subprotocol of the agent endpoint. */
export const AGENT_SUBPROTOCOL = 'ask-user.v1'
/** Path of the agent endpoint. */
export const AGENT_PATH = '/v1/agent'

/**
 * The WebSocket close codes (RFC 6455 §7.4.1) either end of a connection sends or reports: the one
 * table, for the agent endpoint, the agent library and the transports.
 */
export const CloseCode = {
  /** The client is done (`Connection.close`, a status query). */
  NORMAL_CLOSURE: 1000,
  /** The companion is shutting down. */
  GOING_AWAY: 1001,
  /** The peer broke the protocol (an unsupported version; an unreadable companion frame). */
  PROTOCOL_ERROR: 1002,
  /** Reported, never sent: the connection dropped without a closing handshake. */
  ABNORMAL_CLOSURE: 1006,
  /** No `hello` in time. */
  POLICY_VIOLATION: 1008,
  /** Handling a frame failed on our side; this connection alone ends. */
  INTERNAL_ERROR: 1011,
} as const
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode]

/** The longest `client.session` a companion accepts (a harness's session id is far shorter). */
export const SESSION_CHARS = 200

/**
 * Who is asking; shown to the person. All of it is self-declared. `session` (optional, at most
 * {@link SESSION_CHARS} characters) is the harness's own session id: every connection that names the
 * same one, with the same `name`, is one agent in the inbox (shared/agent-key.ts).
 */
export const ClientInfoSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  pid: z.number().int().nonnegative().optional(),
  cwd: z.string().optional(),
  title: z.string().optional(),
  session: z.string().optional(),
})
export type ClientInfo = z.infer<typeof ClientInfoSchema>

/** Per-connection ask id chosen by the agent (1–200 characters). */
export const WireAskIdSchema = z.string().min(1).max(200)

// agent → companion
export const HelloFrameSchema = z.looseObject({
  type: z.literal('hello'),
  protocol: z.number().int(),
  client: ClientInfoSchema,
})
/**
 * An ask. The companion parses every agent frame once with {@link AgentFrameSchema}: the envelope
 * (`INVALID_FRAME`), while `questions` stays unknown on purpose, so that the tool arguments
 * `{questions}` are then checked as the tool checks them (`INVALID_ARGS` / `EMPTY_QUESTIONS` /
 * `LIMIT_EXCEEDED`; a missing `questions` is `INVALID_ARGS`, as upstream words it).
 */
export const AskFrameSchema = z.looseObject({
  type: z.literal('ask'),
  id: WireAskIdSchema,
  title: z.string().optional(),
  questions: z.unknown().optional(),
})
/**
 * An approval request; like `ask`, the envelope is checked first (`INVALID_FRAME`), then `approval` with
 * `ApprovalRequestSchema` (`INVALID_ARGS` / `LIMIT_EXCEEDED`). Answered with `decision`, or `cancelled`.
 */
export const ApproveFrameSchema = z.looseObject({
  type: z.literal('approve'),
  id: WireAskIdSchema,
  title: z.string().optional(),
  approval: z.unknown().optional(),
})
/**
 * A notice for the inbox (fire-and-forget: no reply unless it is refused with `error`, which carries
 * the `id` when the frame had one). `notice` is checked with `NoticeSchema` (`INVALID_ARGS`).
 */
export const NoticeFrameSchema = z.looseObject({
  type: z.literal('notice'),
  id: WireAskIdSchema.optional(),
  title: z.string().optional(),
  notice: z.unknown().optional(),
})
export const CancelFrameSchema = z.looseObject({ type: z.literal('cancel'), id: WireAskIdSchema })
/** Every frame an agent may send, parsed once by the companion (core/agent-connection.ts). */
export const AgentFrameSchema = z.discriminatedUnion('type', [
  HelloFrameSchema,
  AskFrameSchema,
  ApproveFrameSchema,
  NoticeFrameSchema,
  CancelFrameSchema,
])
export type HelloFrame = z.infer<typeof HelloFrameSchema>
export type AskFrame = z.infer<typeof AskFrameSchema>
export type CancelFrame = z.infer<typeof CancelFrameSchema>
export type ApproveFrame = z.infer<typeof ApproveFrameSchema>
export type NoticeFrame = z.infer<typeof NoticeFrameSchema>
export type AgentFrame = z.infer<typeof AgentFrameSchema>

// companion → agent
export const WelcomeFrameSchema = z.object({
  type: z.literal('welcome'),
  protocol: z.number().int(),
  server: z.object({ name: z.string(), version: z.string() }),
})
export const AnswerFrameSchema = z.object({
  type: z.literal('answer'),
  id: z.string(),
  answers: z.array(AnswerSchema),
})
/** The person's decision on an `approve`. */
export const DecisionFrameSchema = z.object({
  type: z.literal('decision'),
  id: z.string(),
  decision: ApprovalDecisionSchema,
})
export const CancelledFrameSchema = z.object({
  type: z.literal('cancelled'),
  id: z.string(),
  code: z.literal('ASK_CANCELLED'),
  message: z.string(),
})
export const ErrorFrameSchema = z.object({
  type: z.literal('error'),
  id: z.string().optional(),
  code: ErrorCodeSchema,
  message: z.string(),
})
export const CompanionFrameSchema = z.discriminatedUnion('type', [
  WelcomeFrameSchema,
  AnswerFrameSchema,
  DecisionFrameSchema,
  CancelledFrameSchema,
  ErrorFrameSchema,
])
export type WelcomeFrame = z.infer<typeof WelcomeFrameSchema>
export type AnswerFrame = z.infer<typeof AnswerFrameSchema>
export type DecisionFrame = z.infer<typeof DecisionFrameSchema>
export type CancelledFrame = z.infer<typeof CancelledFrameSchema>
export type ErrorFrame = z.infer<typeof ErrorFrameSchema>
export type CompanionFrame = z.infer<typeof CompanionFrameSchema>

/** The discovery file `endpoint.json` the companion writes (mode 0600, folder 0700). */
export const EndpointFileSchema = z.looseObject({
  protocol: z.number().int(),
  url: z.string(),
  token: z.string().min(1),
  pid: z.number().int(),
  /**
   * The companion's pid namespace (Linux: the target of /proc/self/ns/pid, e.g. `pid:[4026531836]`).
   * A client checks that `pid` is alive only from the same namespace (a container sees other pids).
   */
  pidNamespace: z.string().optional(),
})
export type EndpointFile = z.infer<typeof EndpointFileSchema>
