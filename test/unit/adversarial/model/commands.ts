// The commands of the model-based test: each checks its precondition on the model, acts on the real
// core, updates the model, and checks that both agree.
import fc from 'fast-check'
import { expect } from 'vitest'
import type { AsyncCommand } from 'fast-check'
import { checkAgreement, flush, pendingOf, WindowView, type Model, type ModelAsk, type Real } from './system'

type Command = AsyncCommand<Model, Real>
const MAX_AGENTS = 3
const MAX_WINDOWS = 2
const options = [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }]

const pick = <T>(items: T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length]
const openAgents = (m: Model): number[] => m.agents.flatMap((a, i) => (a.open ? [i] : []))
const helloedAgents = (m: Model): number[] => m.agents.flatMap((a, i) => (a.open && a.helloed ? [i] : []))
const openWindows = (m: Model): number[] => m.windows.flatMap((open, i) => (open ? [i] : []))

async function step(m: Model, r: Real): Promise<void> {
  await flush()
  r.steps.count++
  checkAgreement(m, r)
}

/** Settles a model ask and every other ask of a closed agent. */
function closeAgentInModel(m: Model, agent: number): void {
  m.agents[agent]!.open = false
  for (const ask of pendingOf(m)) if (ask.agent === agent) ask.outcome = 'agent-gone'
}

class Connect implements Command {
  check = (m: Readonly<Model>): boolean => m.agents.length < MAX_AGENTS
  async run(m: Model, r: Real): Promise<void> {
    r.agents.push(r.core.openAgent())
    m.agents.push({ open: true, helloed: false, asked: 0 })
    await step(m, r)
  }
  toString = (): string => 'connect'
}

class Hello implements Command {
  constructor(private readonly n: number) {}
  check = (m: Readonly<Model>): boolean => m.agents.some((a) => a.open && !a.helloed)
  async run(m: Model, r: Real): Promise<void> {
    const agent = m.agents.findIndex((a) => a.open && !a.helloed)
    r.agents[agent]!.send({ type: 'hello', protocol: 1, client: { name: `agent-${agent}`, pid: 100 + this.n } })
    m.agents[agent]!.helloed = true
    await flush()
    expect(r.agents[agent]!.frames.at(-1)).toMatchObject({ type: 'welcome' })
    await step(m, r)
  }
  toString = (): string => 'hello'
}

class Ask implements Command {
  constructor(private readonly n: number) {}
  check = (m: Readonly<Model>): boolean => helloedAgents(m as Model).length > 0
  async run(m: Model, r: Real): Promise<void> {
    const agent = pick(helloedAgents(m), this.n)!
    const wireId = `w${m.agents[agent]!.asked++}`
    r.agents[agent]!.send({
      type: 'ask',
      id: wireId,
      title: wireId,
      questions: [{ id: 'q1', question: 'Which?', options }],
    })
    await flush()
    const ask = r.core.pending().find((a) => a.agent.name === `agent-${agent}` && a.title === wireId)
    expect(ask).toBeDefined()
    m.asks.push({ agent, wireId, askId: ask!.askId })
    await step(m, r)
  }
  toString = (): string => `ask(${this.n})`
}

class Cancel implements Command {
  constructor(private readonly n: number) {}
  check = (m: Readonly<Model>): boolean => pendingOf(m as Model).some((a) => m.agents[a.agent]!.open)
  async run(m: Model, r: Real): Promise<void> {
    const ask = pick(
      pendingOf(m).filter((a) => m.agents[a.agent]!.open),
      this.n,
    )!
    r.agents[ask.agent]!.send({ type: 'cancel', id: ask.wireId })
    ask.outcome = 'aborted'
    await step(m, r)
  }
  toString = (): string => `cancel(${this.n})`
}

/** A window answers or dismisses any ask ever made (a settled one gets `rejected NOT_PENDING`). */
class Settle implements Command {
  constructor(
    private readonly kind: 'answer' | 'dismiss',
    private readonly w: number,
    private readonly n: number,
  ) {}
  check = (m: Readonly<Model>): boolean => openWindows(m as Model).length > 0 && m.asks.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const window = pick(openWindows(m), this.w)!
    const ask = pick(m.asks, this.n)!
    const view = r.windows[window]!
    const before = view.replies.length
    view.send(
      this.kind === 'answer'
        ? { type: 'ask/answer', askId: ask.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] }
        : { type: 'ask/dismiss', askId: ask.askId },
    )
    await flush()
    const reply = view.replies.slice(before)
    if (ask.outcome === undefined) {
      expect(reply).toEqual([
        { type: 'ask/accepted', askId: ask.askId, outcome: this.kind === 'answer' ? 'answered' : 'cancelled' },
      ])
      ask.outcome = this.kind === 'answer' ? 'answered' : 'cancelled'
    } else {
      expect(reply).toMatchObject([{ type: 'ask/rejected', askId: ask.askId, code: 'NOT_PENDING' }])
    }
    await step(m, r)
  }
  toString = (): string => `${this.kind}(window ${this.w}, ask ${this.n})`
}

class CloseAgent implements Command {
  constructor(
    private readonly abrupt: boolean,
    private readonly n: number,
  ) {}
  check = (m: Readonly<Model>): boolean => openAgents(m as Model).length > 0
  async run(m: Model, r: Real): Promise<void> {
    const agent = pick(openAgents(m), this.n)!
    const link = r.agents[agent]!.transport
    if (this.abrupt) link.drop()
    else link.close(1000, 'bye')
    closeAgentInModel(m, agent)
    expect((await r.agents[agent]!.closed).code).toBe(this.abrupt ? 1006 : 1000)
    await step(m, r)
  }
  toString = (): string => `${this.abrupt ? 'abrupt' : 'clean'} close(${this.n})`
}

class OpenWindow implements Command {
  check = (m: Readonly<Model>): boolean => openWindows(m as Model).length < MAX_WINDOWS
  async run(m: Model, r: Real): Promise<void> {
    const free = m.windows.indexOf(false)
    const index = free === -1 ? m.windows.length : free
    r.windows[index] = new WindowView(r.core)
    m.windows[index] = true
    await step(m, r)
  }
  toString = (): string => 'open window'
}

/** A reload: the window detaches and attaches again; its snapshot must equal the model's pending asks. */
class ReloadWindow implements Command {
  constructor(private readonly w: number) {}
  check = (m: Readonly<Model>): boolean => openWindows(m as Model).length > 0
  async run(m: Model, r: Real): Promise<void> {
    const index = pick(openWindows(m), this.w)!
    r.windows[index]!.close()
    r.windows[index] = new WindowView(r.core)
    await step(m, r)
  }
  toString = (): string => `reload window(${this.w})`
}

/** A bad frame from an agent: `INVALID_FRAME`, and nothing else changes. */
class BadFrame implements Command {
  constructor(
    private readonly frame: string,
    private readonly n: number,
  ) {}
  check = (m: Readonly<Model>): boolean => openAgents(m as Model).length > 0
  async run(m: Model, r: Real): Promise<void> {
    const agent = r.agents[pick(openAgents(m), this.n)!]!
    const before = agent.frames.length
    agent.send(this.frame)
    await flush()
    expect(agent.frames.slice(before)).toMatchObject([{ type: 'error', code: 'INVALID_FRAME' }])
    await step(m, r)
  }
  toString = (): string => `bad frame ${JSON.stringify(this.frame)}`
}

/**
 * Two settlements of one pending ask raced through the scheduler (two windows answering, a window
 * against the agent's cancel, a dismissal against an abrupt close): whichever runs first wins, the
 * other changes nothing, and the agent sees exactly that one outcome.
 */
const OUTCOME_OF = { answer: 'answered', dismiss: 'cancelled', cancel: 'aborted', drop: 'agent-gone' } as const

class Race implements Command {
  constructor(
    private readonly rivals: ['answer' | 'dismiss' | 'cancel' | 'drop', 'answer' | 'dismiss' | 'cancel' | 'drop'],
    private readonly n: number,
  ) {}
  check = (m: Readonly<Model>): boolean =>
    openWindows(m as Model).length > 0 && pendingOf(m as Model).some((a) => m.agents[a.agent]!.open)
  async run(m: Model, r: Real): Promise<void> {
    const ask = pick(
      pendingOf(m).filter((a) => m.agents[a.agent]!.open),
      this.n,
    )!
    const windows = openWindows(m)
    const order: string[] = []
    const act = (rival: string, slot: number): void => {
      order.push(rival)
      const view = r.windows[windows[slot % windows.length]!]!
      if (rival === 'answer')
        view.send({ type: 'ask/answer', askId: ask.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] })
      else if (rival === 'dismiss') view.send({ type: 'ask/dismiss', askId: ask.askId })
      else if (rival === 'cancel') r.agents[ask.agent]!.send({ type: 'cancel', id: ask.wireId })
      else r.agents[ask.agent]!.transport.drop()
    }
    const seen: string[] = []
    const off = r.core.registry.onResolved((settled, settlement) => {
      if (settled.askId === ask.askId) seen.push(settlement.outcome)
    })
    const both = Promise.all(
      this.rivals.map((rival, slot) => r.scheduler.schedule(Promise.resolve(rival)).then(() => act(rival, slot))),
    )
    await r.scheduler.waitAll() // the scheduler picks the order of the two
    await both
    await flush()
    off()
    // Exactly one settlement, and it is one of the rivals' (which one depends on the schedule).
    const candidates = this.rivals.map((rival) => OUTCOME_OF[rival])
    expect(seen).toHaveLength(1)
    expect(candidates).toContain(seen[0])
    ask.outcome = seen[0] as ModelAsk['outcome']
    if (order.includes('drop')) closeAgentInModel(m, ask.agent)
    await step(m, r)
  }
  toString = (): string => `race ${this.rivals.join(' vs ')} (ask ${this.n})`
}

const index = fc.nat({ max: 7 })
const rival = fc.constantFrom('answer', 'dismiss', 'cancel', 'drop') as fc.Arbitrary<
  'answer' | 'dismiss' | 'cancel' | 'drop'
>
const badFrame = fc.constantFrom(
  '{not json',
  '[]',
  '{"type":"nope"}',
  '{"type":"ask","id":""}',
  '{"type":"cancel"}',
  'null',
)

/** Every command the model knows, as one fast-check arbitrary of command sequences. */
export function commandsArbitrary(): fc.Arbitrary<Iterable<Command>> {
  return fc.commands(
    [
      fc.constant(new Connect()),
      index.map((n) => new Hello(n)),
      index.map((n) => new Ask(n)),
      index.map((n) => new Ask(n + 1)),
      index.map((n) => new Cancel(n)),
      fc.tuple(index, index).map(([w, n]) => new Settle('answer', w, n)),
      fc.tuple(index, index).map(([w, n]) => new Settle('dismiss', w, n)),
      fc.tuple(fc.boolean(), index).map(([abrupt, n]) => new CloseAgent(abrupt, n)),
      fc.constant(new OpenWindow()),
      index.map((w) => new ReloadWindow(w)),
      fc.tuple(badFrame, index).map(([frame, n]) => new BadFrame(frame, n)),
      fc.tuple(rival, rival, index).map(([a, b, n]) => new Race([a, b], n)),
    ],
    { maxCommands: 60, size: 'medium' },
  )
}
