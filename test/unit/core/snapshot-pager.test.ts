// The bounded snapshot (core/snapshot-pager.ts and the hub's use of it): a large inbox reaches a window
// as a `snapshot` of the oldest asks up to the bound, then `question/added` frames in order, a bounded
// chunk each time the window has read the last. Driven by hand here: `whenWritable` hands the test the
// resume callback, so every step is explicit.
import { describe, expect, it } from 'vitest'
import type { Ask } from '../../../shared/ask'
import type { AskQuestion } from '../../../shared/question-extras'
import type { UiServerFrame } from '../../../shared/ui'
import { Registry, type NewAsk } from '../../../core/registry'
import {
  addedJson,
  SNAPSHOT_BYTES,
  SnapshotBacklog,
  takeBounded,
  type SerializedAsk,
} from '../../../core/snapshot-pager'
import { WindowHub } from '../../../core/ui-channel'
import { startTestCompanion } from '../../helpers/companion'
import { helloAgent, poll } from './raw-agent'

const owner = { deliver: () => true, deliverDecision: () => true, settled: () => undefined }

function newAsk(n: number, textLength = 100, extra: Partial<AskQuestion> = {}): NewAsk {
  return {
    kind: 'question',
    agent: { name: 'bulk', pid: 1 },
    title: `ask ${n}`,
    questions: [{ id: 'q', question: `${n} ${'x'.repeat(textLength)}`, options: [], multiSelect: false, ...extra }],
    wireId: `w${n}`,
    owner: owner as unknown as NewAsk['owner'],
  }
}

interface Window {
  frames: UiServerFrame[]
  /** Lets the hub send its next chunk; false when it is not waiting. */
  step(): boolean
  close(): void
}

function setUp(bound: number): {
  registry: Registry
  hub: WindowHub
  warnings: string[]
  attach(masks?: boolean): Window
} {
  const warnings: string[] = []
  const registry = new Registry(Date.now, (m) => void warnings.push(m))
  const hub = new WindowHub({
    registry,
    history: async () => ({ entries: [], more: false }),
    warn: (m) => void warnings.push(m),
    snapshotBytes: bound,
  })
  return {
    registry,
    hub,
    warnings,
    attach: (masks = true) => {
      const frames: UiServerFrame[] = []
      let resume: (() => void) | undefined
      const session = hub.attach(
        (frame, json) => {
          expect(JSON.parse(json)).toEqual(frame) // the text sent is the frame
          frames.push(frame)
        },
        { masksSecrets: masks, whenWritable: (next) => void (resume = next) },
      )
      return {
        frames,
        step: () => {
          const next = resume
          resume = undefined
          next?.()
          return next !== undefined
        },
        close: () => session.close(),
      }
    },
  }
}

/** The titles of the asks a window was told of, in order (snapshot first, then question/added). */
function titlesSeen(frames: UiServerFrame[]): string[] {
  return frames.flatMap((f) =>
    f.type === 'snapshot' ? f.pending.map((a) => a.title ?? '') : f.type === 'ask/added' ? [f.ask.title ?? ''] : [],
  )
}

const bytes = (asks: readonly Ask[]): number =>
  asks.reduce((sum, ask) => sum + Buffer.byteLength(JSON.stringify(ask)), 0)

describe('bounded snapshot', () => {
  it('defaults to 256 KiB', () => {
    expect(SNAPSHOT_BYTES).toBe(256 * 1024)
  })

  it('takeBounded takes asks while they fit, and always at least one', () => {
    const registry = new Registry(Date.now, () => undefined)
    const asks = [0, 1, 2, 3].map((n) => registry.add(newAsk(n, 500)))
    const one = Buffer.byteLength(JSON.stringify(asks[0]))
    const out: SerializedAsk[] = []
    expect(takeBounded(asks, 0, one * 2 + 10, out)).toBe(2)
    expect(out.map((item) => item.ask.title)).toEqual(['ask 0', 'ask 1'])
    expect(out[0]?.json).toBe(JSON.stringify(asks[0]))
    const single: SerializedAsk[] = []
    expect(takeBounded(asks, 3, 10, single)).toBe(4) // larger than the bound alone: still sent
    expect(single).toHaveLength(1)
    expect(takeBounded(asks, 4, 10, [])).toBe(4)
  })

  it('question/added text is the same as JSON.stringify of the frame', () => {
    const ask = new Registry(Date.now, () => undefined).add(newAsk(1))
    expect(addedJson(JSON.stringify(ask))).toBe(JSON.stringify({ type: 'ask/added', ask }))
  })

  it('SnapshotBacklog sends in order, skips what was dropped, and takes new asks at the end', () => {
    const registry = new Registry(Date.now, () => undefined)
    const [a, b, c, d] = [0, 1, 2, 3].map((n) => registry.add(newAsk(n))) as [Ask, Ask, Ask, Ask]
    const backlog = new SnapshotBacklog([a, b, c])
    expect(backlog.drop(b.askId)).toBe(true)
    expect(backlog.drop(b.askId)).toBe(false)
    backlog.push(d)
    expect(backlog.next(1).map((item) => item.ask.title)).toEqual(['ask 0'])
    expect(backlog.drop(a.askId)).toBe(false) // already sent: its settlement must go out
    expect(backlog.done).toBe(false)
    expect(backlog.next(Number.MAX_SAFE_INTEGER).map((item) => item.ask.title)).toEqual(['ask 2', 'ask 3'])
    expect(backlog.done).toBe(true)
    expect(backlog.next(1)).toEqual([])
  })

  it('a small inbox is one snapshot, and nothing waits', () => {
    const { registry, attach } = setUp(SNAPSHOT_BYTES)
    for (let n = 0; n < 5; n++) registry.add(newAsk(n))
    const window = attach()
    expect(window.frames).toHaveLength(1)
    expect(titlesSeen(window.frames)).toEqual(['ask 0', 'ask 1', 'ask 2', 'ask 3', 'ask 4'])
    expect(window.step()).toBe(false)
  })

  it('a large inbox: the snapshot stays within the bound, the rest follow in order, one bounded chunk per read', () => {
    const bound = 4 * 1024
    const { registry, attach, warnings } = setUp(bound)
    for (let n = 0; n < 40; n++) registry.add(newAsk(n, 900))
    const window = attach()
    const [snapshot] = window.frames
    if (snapshot?.type !== 'snapshot') throw new Error('no snapshot first')
    expect(snapshot.pending.length).toBeGreaterThan(0)
    expect(snapshot.pending.length).toBeLessThan(40)
    expect(bytes(snapshot.pending)).toBeLessThanOrEqual(bound)
    // Marks where the rest ends, so a window tells the inbox at connect from new arrivals.
    expect(snapshot.restUntil).toBe(registry.pending().at(-1)!.receivedAt)
    let chunks = 0
    for (;;) {
      const before = window.frames.length
      if (!window.step()) break
      chunks++
      const chunk = window.frames.slice(before).map((f) => (f.type === 'ask/added' ? f.ask : undefined))
      expect(chunk.every((ask) => ask !== undefined)).toBe(true)
      expect(bytes(chunk as Ask[])).toBeLessThanOrEqual(bound)
    }
    expect(chunks).toBeGreaterThan(3)
    expect(titlesSeen(window.frames)).toEqual(Array.from({ length: 40 }, (_, n) => `ask ${n}`))
    expect(warnings).toEqual([])
  })

  it('an ask larger than the bound goes alone, in the snapshot and in a chunk', () => {
    const { registry, attach } = setUp(1024)
    for (let n = 0; n < 3; n++) registry.add(newAsk(n, 5000))
    const window = attach()
    expect(window.frames[0]).toMatchObject({ type: 'snapshot', pending: [{ title: 'ask 0' }] })
    expect(window.step()).toBe(true)
    expect(window.frames).toHaveLength(2)
    expect(window.step()).toBe(true)
    expect(window.step()).toBe(false)
    expect(titlesSeen(window.frames)).toEqual(['ask 0', 'ask 1', 'ask 2'])
  })

  it('while the rest is being sent: a new ask joins the end, an unsent ask that settles is never mentioned, a sent one is', () => {
    const { registry, attach } = setUp(2 * 1024)
    const asks = Array.from({ length: 20 }, (_, n) => registry.add(newAsk(n, 900)))
    const window = attach()
    const sent = titlesSeen(window.frames).length
    const inSnapshot = asks[0] as Ask
    const unsent = asks[15] as Ask
    registry.dismiss(inSnapshot.askId)
    registry.dismiss(unsent.askId)
    registry.add(newAsk(99, 10))
    while (window.step());
    const seen = titlesSeen(window.frames)
    expect(sent).toBeLessThan(15)
    expect(seen).toEqual([...asks.map((a) => a.title ?? '').filter((t) => t !== 'ask 15'), 'ask 99'])
    const resolved = window.frames.filter((f) => f.type === 'ask/settled')
    expect(resolved).toEqual([{ type: 'ask/settled', askId: inSnapshot.askId, outcome: 'cancelled' }])
    // Once the backlog is sent, the window is an ordinary one again.
    const late = registry.add(newAsk(100, 10))
    expect(window.frames.at(-1)).toEqual({ type: 'ask/added', ask: late })
    registry.dismiss(late.askId)
    expect(window.frames.at(-1)).toEqual({ type: 'ask/settled', askId: late.askId, outcome: 'cancelled' })
  })

  it('other windows are not held back by one that is still reading its inbox', () => {
    const { registry, attach } = setUp(1024)
    for (let n = 0; n < 10; n++) registry.add(newAsk(n, 900))
    const slow = attach()
    const fast = attach()
    while (fast.step());
    const added = registry.add(newAsk(50, 10))
    expect(fast.frames.at(-1)).toEqual({ type: 'ask/added', ask: added })
    expect(titlesSeen(slow.frames)).not.toContain('ask 50')
    while (slow.step());
    expect(titlesSeen(slow.frames)).toEqual([...Array.from({ length: 10 }, (_, n) => `ask ${n}`), 'ask 50'])
  })

  it('a window that does not mask secrets gets none of them, in the snapshot or after', () => {
    const { registry, attach } = setUp(1024)
    for (let n = 0; n < 6; n++) registry.add(newAsk(n, 900, n % 2 === 0 ? { secret: true } : {}))
    const window = attach(false)
    registry.add(newAsk(7, 10, { secret: true }))
    while (window.step());
    expect(titlesSeen(window.frames)).toEqual(['ask 1', 'ask 3', 'ask 5'])
  })

  it('a window that closes mid-way gets nothing more', () => {
    const { registry, attach } = setUp(1024)
    for (let n = 0; n < 10; n++) registry.add(newAsk(n, 900))
    const window = attach()
    window.step()
    const count = window.frames.length
    window.close()
    window.step()
    registry.add(newAsk(11, 10))
    expect(window.frames).toHaveLength(count)
  })
})

describe('bounded snapshot through Companion.attachWindow (the Electron IPC path)', () => {
  it('a 2.3 MB inbox arrives as a bounded snapshot, then question/added frames in order, one chunk per turn', async () => {
    const t = await startTestCompanion({ settings: { history: false } })
    try {
      const agent = await helloAgent(t.companion, 'bulk')
      const questions = Array.from({ length: 4 }, (_, i) => ({ id: `q${i}`, question: String(i).repeat(19_000) }))
      for (let n = 0; n < 30; n++) agent.send({ type: 'ask', id: `k${n}`, title: `ask ${n}`, questions })
      await poll(() => t.companion.pending().length).toBe(30)
      const frames: UiServerFrame[] = []
      const handle = t.companion.attachWindow((frame) => void frames.push(frame))
      expect(frames).toHaveLength(1) // the snapshot at once; the rest on later turns
      const [snapshot] = frames
      if (snapshot?.type !== 'snapshot') throw new Error('no snapshot first')
      expect(bytes(snapshot.pending)).toBeLessThanOrEqual(SNAPSHOT_BYTES)
      expect(snapshot.pending.length).toBeLessThan(30)
      await expect.poll(() => titlesSeen(frames).length, { timeout: 10_000 }).toBe(30)
      expect(titlesSeen(frames)).toEqual(Array.from({ length: 30 }, (_, n) => `ask ${n}`))
      handle.close()
      agent.socket.close()
    } finally {
      await t.cleanup()
    }
  })
})
