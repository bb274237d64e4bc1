/** The approval and notice types the hooks produce: the shared contract (shared/approval.ts). */
export type { ApprovalAction, ApprovalDecision, ApprovalRequest, Notice } from '../../shared/approval'
