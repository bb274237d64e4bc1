import type { Answer } from '../shared/answer'
import type { Question } from '../shared/tool-input'
import type { ApprovalDecision, ApprovalRequest, Notice } from '../shared/approval'

/** Who the hook speaks for, as the inbox shows it. */
export interface HookAgent {
  /** The harness's name, e.g. "Claude Code". */
  name: string
  /** The agent's working folder (from the event). */
  cwd?: string
  /** A short session label shown under the name ("session 1a2b3c4d"). */
  title?: string
  /** The harness's session id: every hook call of one session is one agent (shared/agent-key.ts). */
  session?: string
}

/**
 * What one harness event asks of the companion, and how the answer becomes the harness's stdout:
 * - `approve`: an approval card; `output` turns the decision into the exact stdout text, or
 *   undefined for "print nothing" (the harness then asks in its own way); `dismissed`, when set, is
 *   the exact stdout for a card the person dismissed ("let the terminal decide") where printing
 *   nothing would not send the call to the terminal (Gemini CLI under `--yolo` would run it);
 * - `ask`: a question card (tool questions); `output` turns the answers into stdout text;
 * - `notice`: a fire-and-forget notice, nothing printed;
 * - `pass`: nothing to do for this event (nothing printed), with the reason for stderr.
 */
export type HookPlan =
  | {
      kind: 'approve'
      request: ApprovalRequest
      output: (decision: ApprovalDecision) => string | undefined
      dismissed?: string
    }
  | { kind: 'ask'; questions: Question[]; output: (answers: Answer[]) => string | undefined }
  | { kind: 'notice'; notice: Notice }
  | { kind: 'pass'; reason: string }

/** One event, mapped: who asks and what. */
export interface HookWork {
  agent: HookAgent
  plan: HookPlan
}

/** The event is not what the harness documents: the hook prints nothing and says why on stderr. */
export class HookInputError extends Error {
  override readonly name = 'HookInputError'
}
