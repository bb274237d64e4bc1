// relay/crypto's public surface, as a table of contents. Everything else in this folder is internal.
export { RelayCryptoError, RelayCryptoCodeSchema, isRelayCryptoError, type RelayCryptoCode } from './errors'
export { randomToken, toBase64url, fromBase64url, type Bytes } from './encoding'
export {
  generateMemberIdentity,
  loadMemberKeys,
  generateRootIdentity,
  loadRootKeys,
  rootFromRecoveryCode,
  memberIdFor,
  type MemberKeys,
  type RootKeys,
} from './keys'
export {
  signRoster,
  renewRoster,
  verifyRoster,
  refuseStaleRoster,
  verifyRosterSignature,
  rosterRenewal,
  findMember,
  answeringMembers,
  ROSTER_LIFETIME_MS,
  ROSTER_RENEW_BEFORE_MS,
  type SignedRoster,
} from './roster'
export {
  RosterRecordSchema,
  rosterRecordOf,
  signedRosterOf,
  encodeRosterRecord,
  parseRosterRecord,
  type RosterRecord,
} from './roster-record'
export { newReplyKey, type ReplyKey } from './reply-key'
export { sealToKey, openSealedBox, type SealedBox } from './sealed-box'
export { signEnvelope, splitEnvelope, verifyBytes } from './signing'
export { sealQuestion, openQuestion, type SealedQuestion, type OpenedQuestion } from './question-envelope'
export { sealAnswer, acceptAnswer, verifyAnswerOrigin, type AcceptedAnswer } from './answer-envelope'
export { signReceipt, openReceipt } from './receipt-envelope'
export { signPresence, openPresence } from './presence-envelope'
export {
  Key32Schema,
  MemberSchema,
  MemberSecretSchema,
  RootSecretSchema,
  RosterSchema,
  QuestionHeaderSchema,
  AnswerHeaderSchema,
  ReceiptSchema,
  ReceiptOutcomeSchema,
  PresenceSchema,
  RosterPushSchema,
  WrappedKeySchema,
  type RosterPush,
  type Member,
  type MemberRole,
  type MemberSecret,
  type RootSecret,
  type Roster,
  type QuestionHeader,
  type AnswerHeader,
  type Receipt,
  type ReceiptOutcome,
  type Presence,
} from './schemas'
