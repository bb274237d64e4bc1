// relay/exchange's public surface: the two ends of one remote ask. Everything else here is internal.
export { RelayExchangeError, RelayExchangeCodeSchema, isRelayExchangeError, type RelayExchangeCode } from './errors'
export { RelayLink, DEFAULT_REACH_TIMEOUT_MS, type RelayLinkOptions, type RelayConnect } from './relay-link'
export { nodeConnect } from './node-connect'
export {
  RemoteAsker,
  MAX_REASKS,
  type RemoteAskerOptions,
  type RemoteAskOptions,
  type RemoteAskEvent,
} from './remote-asker'
export { openRemoteAsker, type AgentRelayConfig } from './open-asker'
export {
  RelayDesk,
  type RelayDeskOptions,
  type RemoteAsk,
  type RemoteAskSettled,
  type AnswerResult,
  type DeskRefusal,
} from './relay-desk'
export {
  PresenceBeacon,
  PresenceTracker,
  PRESENCE_BUCKET,
  PRESENCE_LAPSE_MS,
  PRESENCE_REFRESH_MS,
  type PresenceChange,
} from './presence'
export { openOnThisThread, type QuestionOpener } from './question-opener'
export { WorkerQuestionOpener } from './question-opener-in-worker'
export { decodeRosterRecord, ROSTER_BUCKET, ROSTER_KEY } from './roster-source'
export { inboxKey, parseInboxKey, INBOX_BUCKET, type InboxKind } from './inbox-keys'
export {
  RemoteQuestionBodySchema,
  RemoteAnswerBodySchema,
  type RemoteQuestionBody,
  type RemoteAnswerBody,
} from './schemas'
