// The agent side of Ask User Companion: the `ask_user_question` tool, upstream's seam, and a client of
// the companion. Plain Node; reaches the companion over its socket only.
export { AskUserClient, type AskOptions, type AskUserClientOptions } from './client'
export { companionHome, discoverEndpoint, statusUrl, type Endpoint } from './discovery'
export { Connection, type PendingApproval, type PendingAsk } from './connection'
export { AskAbortedError, START_HINT, abortReason, type AbortReason } from './errors'
export {
  createCompanionProvider,
  registerAskUserCompanion,
  type BoundAskUserQuestionTool,
  type CompanionProvider,
  type CompanionRegistration,
  type ProviderOptions,
} from './provider'
export { toHostError, type HostErrorClass } from './host-errors'
export { toToolQuestion, toUserQuestion } from './question-mapping'
export { fetchStatus, CompanionStatusSchema, type CompanionStatus, type StatusReport } from './status'
export {
  TOOL_ANNOTATIONS,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_TITLE,
  createAskUserQuestionTool,
  executeAskUserQuestion,
  runAskUserQuestion,
  toolInputJsonSchema,
  type AskUserQuestionTool,
  type JsonSchema,
  type ToolContext,
} from './tool-definition'
export { validateAsk } from './validated-ask'
export { HandshakeError } from './ws-transport'
export {
  toolFailure,
  toolSuccess,
  type TextContent,
  type ToolFailure,
  type ToolResult,
  type ToolSuccess,
} from './tool-result'
export {
  UserInteraction,
  type UserInteractionAgent,
  type UserInteractionAnswer,
  type UserInteractionAnswerItem,
  type UserInteractionProvider,
  type UserInteractionRequest,
  type UserInteractionSeam,
  type UserQuestion,
  type UserQuestionOption,
} from './user-interaction'
export { AskUserError, isAskUserError, type ErrorCode } from '../shared/error-codes'
export type { Answer, AskAnswer } from '../shared/answer'
export {
  APPROVAL_BODY_CHARS,
  ApprovalActionSchema,
  ApprovalDecisionSchema,
  ApprovalRequestSchema,
  NoticeSchema,
  type ApprovalAction,
  type ApprovalDecision,
  type ApprovalRequest,
  type Notice,
} from '../shared/approval'
export type { CheckedAnswer } from '../shared/answer-rules'
export type { Transport, TransportMessage } from '../shared/transport'
export type { ValidatedAsk } from '../shared/validate-input'
export type { AskUserQuestionInput, Question, QuestionOption } from '../shared/tool-input'
