// Test helper: builders for each kind of ask, and narrowing a value of the union to the kind a test
// expects (a wrong kind fails the test with what it was, instead of a cast hiding it).
import type { ApprovalRequest } from '../../shared/approval'
import type {
  ApprovalAsk,
  ApprovalHistoryEntry,
  Ask,
  HistoryEntry,
  QuestionAsk,
  QuestionHistoryEntry,
} from '../../shared/ask'

/** A pending question ask: one free-text question unless `overrides` says otherwise. */
export function questionAsk(overrides: Partial<Omit<QuestionAsk, 'kind'>> = {}): QuestionAsk {
  return {
    kind: 'question',
    askId: 'ask-1',
    agent: { name: 'test-agent' },
    receivedAt: 1_700_000_000_000,
    questions: [{ id: 'q1', question: 'Which database?' }],
    ...overrides,
  }
}

/** A pending approval ask for `approval`. */
export function approvalAsk(
  approval: ApprovalRequest,
  overrides: Partial<Omit<ApprovalAsk, 'kind' | 'approval'>> = {},
): ApprovalAsk {
  return {
    kind: 'approval',
    askId: 'approval-1',
    agent: { name: 'test-agent' },
    receivedAt: 1_700_000_000_000,
    approval,
    ...overrides,
  }
}

/** `value` as a question ask or entry; throws (failing the test) when it is an approval. */
export function asQuestion(value: Ask): QuestionAsk
export function asQuestion(value: HistoryEntry): QuestionHistoryEntry
export function asQuestion(value: Ask | HistoryEntry): QuestionAsk | QuestionHistoryEntry {
  if (value.kind === 'question') return value
  throw new Error(`expected a question, got an approval (askId ${value.askId})`)
}

/** `value` as an approval ask or entry; throws (failing the test) when it is a question. */
export function asApproval(value: Ask): ApprovalAsk
export function asApproval(value: HistoryEntry): ApprovalHistoryEntry
export function asApproval(value: Ask | HistoryEntry): ApprovalAsk | ApprovalHistoryEntry {
  if (value.kind === 'approval') return value
  throw new Error(`expected an approval, got a question (askId ${value.askId})`)
}
