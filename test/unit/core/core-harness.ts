// The companion's protocol objects wired in memory, as companion.ts wires them but without an HTTP
// server: a registry, the window hub, agents over linked transports, windows attached to the hub.
import type { Answer } from '../../../shared/answer'
import type { ApprovalDecision } from '../../../shared/approval'
import type { Ask, HistoryEntry } from '../../../shared/ask'
import { DEFAULT_LIMITS, type Limits } from '../../../shared/limits'
import type { UiServerFrame } from '../../../shared/ui'
import { CompanionFrameSchema, type CompanionFrame } from '../../../shared/wire'
import { AgentConnection } from '../../../core/agent-connection'
import { historyEntry, undeliveredEntry } from '../../../core/history'
import { parseWindowFrame } from '../../../core/ui-frames'
import { Registry } from '../../../core/registry'
import { WindowHub } from '../../../core/ui-channel'
import { createFrameQueue } from '../../helpers/frame-queue'
import { createLinkedPair, type LinkedTransport } from '../../helpers/linked-pair'

/** A bare wire-protocol agent on the far end of a linked pair: raw frames in, raw frames out. */
export interface PairAgent {
  /** The agent's end of the pair (send binary, drop the link). */
  transport: LinkedTransport
  /** The companion's connection on the other end. */
  connection: AgentConnection
  frames: CompanionFrame[]
  send(frame: object | string): void
  /** First unconsumed frame matching `predicate` (consumed on return); rejects after `timeoutMs`. */
  next<T extends CompanionFrame = CompanionFrame>(
    predicate?: (frame: CompanionFrame) => boolean,
    timeoutMs?: number,
  ): Promise<T>
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>
}

type FrameOf<T extends UiServerFrame['type']> = Extract<UiServerFrame, { type: T }>

/** A window attached straight to the hub (as an IPC window is): objects in, objects out. */
export interface HubWindow {
  snapshot: FrameOf<'snapshot'>
  frames: UiServerFrame[]
  nextFrame<T extends UiServerFrame = UiServerFrame>(
    predicate: (frame: UiServerFrame) => boolean,
    timeoutMs?: number,
  ): Promise<T>
  nextAsk(predicate?: (ask: Ask) => boolean): Promise<Ask>
  /** Sends an `answer` and resolves with the `accepted` or `rejected` reply for that askId. */
  answer(askId: string, answers: Answer[]): Promise<FrameOf<'ask/accepted'> | FrameOf<'ask/rejected'>>
  /** Sends an `ask/decide` and resolves with the `accepted` or `rejected` reply. */
  decide(askId: string, decision: ApprovalDecision): Promise<FrameOf<'ask/accepted'> | FrameOf<'ask/rejected'>>
  /** Sends a `dismiss` and resolves with the `accepted` or `rejected` reply. */
  dismiss(askId: string): Promise<FrameOf<'ask/accepted'> | FrameOf<'ask/rejected'>>
  /** Hands any value to the hub, as a window would send it. */
  send(frame: unknown): void
  close(): void
}

/** The protocol objects of one in-memory companion. */
export interface CoreHarness {
  registry: Registry
  hub: WindowHub
  /** Warnings the protocol objects reported (a test ends with none). */
  warnings: string[]
  /** The pending asks, oldest first. */
  pending(): Ask[]
  /** Connects an agent (no hello sent). */
  openAgent(): PairAgent
  /** Connects an agent and completes hello/welcome. */
  helloAgent(name?: string): Promise<PairAgent>
  /** Attaches a window; its snapshot is there at once. */
  attachWindow(): HubWindow
  /** Shuts every agent down (as the companion's shutdown does) and detaches the hub. */
  shutdown(): void
}

/** Options of {@link startCore}; every field is optional. */
export interface CoreOptions {
  limits?: Limits
  serverInfo?: { name: string; version: string }
  /** Default 10,000 ms, as the companion's. */
  helloTimeoutMs?: number
}

/** Wires a registry, a hub with an in-memory history, and agents over linked pairs. */
export function startCore(options: CoreOptions = {}): CoreHarness {
  const limits = options.limits ?? DEFAULT_LIMITS
  const warnings: string[] = []
  const warn = (message: string): void => void warnings.push(message)
  const registry = new Registry(Date.now, warn, limits.textChars)
  const history: HistoryEntry[] = []
  registry.onResolved((ask, settlement, settledAt, delivered) =>
    history.push(historyEntry(ask, settlement, settledAt, delivered)),
  )
  registry.onUndelivered((ask, answers, at) => {
    const entry = undeliveredEntry(ask, answers, at)
    if (entry) history.push(entry)
  })
  const hub = new WindowHub({
    registry,
    history: async ({ limit }) => ({ entries: history.slice(-limit).reverse(), more: history.length > limit }),
    warn,
  })
  const connections = new Set<AgentConnection>()
  const serverInfo = options.serverInfo ?? { name: 'test-companion', version: '0.0.0' }

  const openAgent = (): PairAgent => {
    const [agentEnd, companionEnd] = createLinkedPair()
    const connection = new AgentConnection(companionEnd, {
      registry,
      limits,
      serverInfo,
      helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
      warn,
    })
    connections.add(connection)
    const queue = createFrameQueue<CompanionFrame>('agent')
    agentEnd.onmessage = (message) => {
      if (message.kind === 'text') queue.push(CompanionFrameSchema.parse(JSON.parse(message.text)))
    }
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      agentEnd.onclose = (code, reason) => {
        connections.delete(connection)
        resolve({ code, reason })
        queue.end()
      }
    })
    return {
      transport: agentEnd,
      connection,
      frames: queue.frames,
      closed,
      send: (frame) => void agentEnd.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
      next: (predicate, timeoutMs) => queue.next(predicate, timeoutMs),
    }
  }

  return {
    registry,
    hub,
    warnings,
    pending: () => registry.pending(),
    openAgent,
    helloAgent: async (name = 'test-agent') => {
      const agent = openAgent()
      agent.send({ type: 'hello', protocol: 1, client: { name, pid: 42, cwd: '/tmp/project' } })
      await agent.next((frame) => frame.type === 'welcome')
      return agent
    },
    attachWindow: () => attachWindow(hub),
    shutdown: () => {
      for (const connection of connections) connection.shutdown()
      hub.dispose()
    },
  }
}

function attachWindow(hub: WindowHub): HubWindow {
  const queue = createFrameQueue<UiServerFrame>('window')
  const session = hub.attach((frame) => queue.push(frame))
  const [first] = queue.frames
  if (first?.type !== 'snapshot') throw new Error('the hub sent no snapshot first')
  void queue.next((frame) => frame.type === 'snapshot')
  const reply = (askId: string) =>
    queue.next<FrameOf<'ask/accepted'> | FrameOf<'ask/rejected'>>(
      (frame) => (frame.type === 'ask/accepted' || frame.type === 'ask/rejected') && frame.askId === askId,
    )
  return {
    snapshot: first,
    frames: queue.frames,
    nextFrame: (predicate, timeoutMs) => queue.next(predicate, timeoutMs),
    nextAsk: async (predicate = () => true) =>
      (await queue.next<FrameOf<'ask/added'>>((frame) => frame.type === 'ask/added' && predicate(frame.ask))).ask,
    answer: (askId, answers) => {
      const result = reply(askId)
      session.receive({ type: 'ask/answer', askId, answers })
      return result
    },
    decide: (askId, decision) => {
      const result = reply(askId)
      session.receive({ type: 'ask/decide', askId, decision })
      return result
    },
    dismiss: (askId) => {
      const result = reply(askId)
      session.receive({ type: 'ask/dismiss', askId })
      return result
    },
    // What a transport's edge does before the hub: the one check (ui-frames.ts), a refusal sent back.
    send: (frame) => {
      const checked = parseWindowFrame(frame)
      if (checked.ok) session.receive(checked.frame)
      else queue.push(checked.rejected)
    },
    close: () => {
      session.close()
      queue.end()
    },
  }
}
