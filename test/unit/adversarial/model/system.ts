// The model-based test's two worlds: the model (what must be true) and the real core (registry, hub,
// agent connections over in-memory links), plus the check that they agree after every step.
import type { Scheduler } from 'fast-check'
import { expect } from 'vitest'
import type { Ask, Outcome } from '../../../../shared/ask'
import type { UiServerFrame } from '../../../../shared/ui'
import { startCore, type CoreHarness, type PairAgent } from '../../core/core-harness'
import { parseWindowFrame } from '../../../../core/ui-frames'

/** One ask as the model knows it; `outcome` unset while pending. */
export interface ModelAsk {
  agent: number
  wireId: string
  askId: string
  outcome?: Outcome
}

/** What must be true: agents (open, helloed), open windows, every ask ever made. */
export interface Model {
  agents: { open: boolean; helloed: boolean; asked: number }[]
  windows: boolean[]
  asks: ModelAsk[]
}

/** A window attached to the hub, keeping its own list of pending asks from the frames it gets. */
export class WindowView {
  readonly list = new Map<string, Ask>()
  readonly replies: UiServerFrame[] = []
  private readonly session

  constructor(core: CoreHarness) {
    this.session = core.hub.attach((frame) => this.receive(frame))
  }

  /** What a transport's edge does: the one check (ui-frames.ts), a refusal kept as a reply. */
  send(frame: unknown): void {
    const checked = parseWindowFrame(frame)
    if (checked.ok) this.session.receive(checked.frame)
    else this.replies.push(checked.rejected)
  }

  close(): void {
    this.session.close()
  }

  private receive(frame: UiServerFrame): void {
    if (frame.type === 'snapshot') for (const ask of frame.pending) this.list.set(ask.askId, ask)
    else if (frame.type === 'ask/added') this.list.set(frame.ask.askId, frame.ask)
    else if (frame.type === 'ask/settled') this.list.delete(frame.askId)
    else this.replies.push(frame)
  }
}

/** The real system under test. */
export interface Real {
  /** Orders raced settlements. */
  scheduler: Scheduler
  /** Steps run so far, over every sequence (for the figures in docs/reliability.md). */
  steps: { count: number }
  core: CoreHarness
  agents: PairAgent[]
  windows: (WindowView | undefined)[]
}

/** A fresh core with one agent (said hello as `agent-0`) and one window attached, and the model of it. */
export async function setup(scheduler: Scheduler, steps: { count: number }): Promise<{ model: Model; real: Real }> {
  const core = startCore()
  const agent = core.openAgent()
  agent.send({ type: 'hello', protocol: 1, client: { name: 'agent-0' } })
  await agent.next((frame) => frame.type === 'welcome')
  return {
    model: { agents: [{ open: true, helloed: true, asked: 0 }], windows: [true], asks: [] },
    real: { scheduler, steps, core, agents: [agent], windows: [new WindowView(core)] },
  }
}

/** Lets every in-flight frame arrive (the links deliver on microtasks; one macrotask turn drains them). */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** The model's pending asks. */
export const pendingOf = (model: Model): ModelAsk[] => model.asks.filter((ask) => ask.outcome === undefined)

/**
 * After every step: the registry, each open window's list and each agent's frames equal the model —
 * exactly one outcome per ask, the one the model says, and nothing for asks still pending.
 */
export function checkAgreement(model: Model, real: Real): void {
  const expected = pendingOf(model)
    .map((ask) => ask.askId)
    .sort()
  expect(
    real.core
      .pending()
      .map((ask) => ask.askId)
      .sort(),
  ).toEqual(expected)
  model.windows.forEach((open, index) => {
    const view = real.windows[index]
    if (open && view) expect([...view.list.keys()].sort()).toEqual(expected)
  })
  for (const ask of model.asks) {
    const frames = real.agents[ask.agent]!.frames.filter(
      (frame) => 'id' in frame && frame.id === ask.wireId && frame.type !== 'error',
    )
    const kinds = frames.map((frame) => frame.type)
    if (ask.outcome === 'answered') expect(kinds).toEqual(['answer'])
    else if (ask.outcome === 'cancelled') expect(kinds).toEqual(['cancelled'])
    else expect(kinds).toEqual([]) // pending, aborted by the agent itself, or its agent gone: nothing sent
  }
  expect(real.core.warnings).toEqual([])
}
