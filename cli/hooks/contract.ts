/**
 * The approval and notice types the hooks produce, as brief 11a outlines them for shared/approval.ts.
 * Kept here until that contract lands on this branch; then this file only re-exports it.
 */
export type ApprovalAction =
  | { kind: 'command'; command: string; description?: string; cwd?: string }
  | { kind: 'file'; path: string; operation?: 'edit' | 'write' | 'delete' | 'read'; diff?: string; content?: string }
  | { kind: 'url'; url: string }
  | { kind: 'plan'; plan: string }
  | { kind: 'tool'; input: string }

/** What an agent asks the person to approve. `always` only where the harness can remember the choice. */
export interface ApprovalRequest {
  tool: string
  action: ApprovalAction
  harness?: string
  always?: { label: string }
}

/** The person's decision. */
export type ApprovalDecision = { behavior: 'allow'; always?: true } | { behavior: 'deny'; message?: string }

/** A fire-and-forget line for the inbox. */
export interface Notice {
  kind: 'needs-input' | 'turn-complete' | 'info'
  text: string
}
