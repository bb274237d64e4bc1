// A scripted CompanionBridge: the renderer's own seam, faked so components run without a companion.
import { tick } from 'svelte'
import type { Answer } from '../../shared/answer'
import type { ApprovalDecision } from '../../shared/approval'
import type { ApprovalRequest } from '../../shared/approval'
import type { ApprovalAsk, Ask, QuestionAsk } from '../../shared/ask'
import type { BridgeStatus, CompanionBridge } from '../../shared/bridge'
import type { RelayChange, RelayChangeResult } from '../../shared/ipc'
import type { UiServerFrame } from '../../shared/ui'

export class FakeBridge implements CompanionBridge {
  readonly answered: { askId: string; answers: Answer[] }[] = []
  readonly dismissed: string[] = []
  readonly historyRequests: (number | undefined)[] = []
  readonly #frames = new Set<(frame: UiServerFrame) => void>()
  readonly #statuses = new Set<(status: BridgeStatus) => void>()
  readonly #focus = new Set<(askId: string) => void>()
  #status: BridgeStatus = 'open'

  answer(askId: string, answers: Answer[]): void {
    this.answered.push({ askId, answers })
  }
  readonly decided: { askId: string; decision: ApprovalDecision }[] = []
  decide(askId: string, decision: ApprovalDecision): void {
    this.decided.push({ askId, decision })
  }
  readonly clearedNotices: string[] = []
  dismissNotice(noticeId: string): void {
    this.clearedNotices.push(noticeId)
  }
  dismiss(askId: string): void {
    this.dismissed.push(askId)
  }
  /** The `before` of each history request, in order (undefined: the newest page). */
  readonly historyBefore: Array<string | undefined> = []
  requestHistory(limit?: number, before?: string): void {
    this.historyRequests.push(limit)
    this.historyBefore.push(before)
  }
  onFrame(listener: (frame: UiServerFrame) => void): () => void {
    this.#frames.add(listener)
    return () => this.#frames.delete(listener)
  }
  onStatus(listener: (status: BridgeStatus) => void): () => void {
    this.#statuses.add(listener)
    listener(this.#status)
    return () => this.#statuses.delete(listener)
  }

  onFocusAsk(listener: (askId: string) => void): () => void {
    this.#focus.add(listener)
    return () => this.#focus.delete(listener)
  }

  /** The host asks to show one ask (tray menu or notification click). */
  async focusAsk(askId: string): Promise<void> {
    for (const listener of [...this.#focus]) listener(askId)
    await tick()
  }

  /** The relay changes the page asked for, in order (as the desktop window's bridge has `changeRelay`). */
  readonly relayChanges: RelayChange[] = []
  /** How the next relay changes are refused, in order; a change with none queued is applied (`ok`). */
  readonly relayRefusals: Array<{ code: string; message: string }> = []
  async changeRelay(change: RelayChange): Promise<RelayChangeResult> {
    this.relayChanges.push(change)
    const changeId = `change-${this.relayChanges.length}`
    const refusal = this.relayRefusals.shift()
    return refusal ? { changeId, ok: false, ...refusal } : { changeId, ok: true }
  }

  /** Delivers a frame from the "companion" and lets Svelte update the DOM. */
  async emit(frame: UiServerFrame): Promise<void> {
    for (const listener of [...this.#frames]) listener(frame)
    await tick()
  }
  async snapshot(pending: Ask[]): Promise<void> {
    await this.emit({ type: 'snapshot', pending })
  }
  async setStatus(status: BridgeStatus): Promise<void> {
    this.#status = status
    for (const listener of [...this.#statuses]) listener(status)
    await tick()
  }
}

let counter = 0

/** An ask with sensible defaults; `questions` is the tool input as an agent would send it. */
export function makeAsk(overrides: Partial<QuestionAsk> = {}): QuestionAsk {
  counter += 1
  return {
    askId: `ask-${counter}`,
    kind: 'question',
    agent: { name: 'claude-code', cwd: '/home/dev/project', pid: 4242 },
    questions: [
      {
        id: 'pkg',
        header: 'Package manager',
        question: 'Which package manager should I use?',
        options: [
          { label: 'pnpm (Recommended)', description: 'Fast and strict.' },
          { label: 'npm', description: 'Comes with Node.' },
          { label: 'yarn' },
        ],
      },
    ],
    receivedAt: Date.now() - 65_000,
    ...overrides,
  }
}

/** An approval with sensible defaults around `approval`. */
export function makeApproval(approval: ApprovalRequest, overrides: Partial<ApprovalAsk> = {}): ApprovalAsk {
  counter += 1
  return {
    askId: `ask-${counter}`,
    kind: 'approval',
    agent: { name: 'claude-code', cwd: '/home/dev/project', pid: 4242 },
    approval,
    receivedAt: Date.now(),
    ...overrides,
  }
}
