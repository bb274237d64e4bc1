import { describe, expect, it } from 'vitest'
import { BurstQueue, FRAME_TIMEOUT_MS, nextFrame, SYNC_PER_FRAME } from '../../../renderer/src/state/burst-queue'
import { ManualClock } from '../../component/manual-clock'

/** A scheduler the test ends frames with, by hand. */
function manualFrames(): { schedule: (run: () => void) => () => void; end: () => void; pending: () => number } {
  const runs = new Set<() => void>()
  return {
    schedule: (run) => {
      runs.add(run)
      return () => runs.delete(run)
    },
    end: () => {
      const now = [...runs]
      runs.clear()
      for (const run of now) run()
    },
    pending: () => runs.size,
  }
}

describe('BurstQueue', () => {
  it('applies a few items at once, one by one', () => {
    const frames = manualFrames()
    const calls: number[][] = []
    const queue = new BurstQueue<number>((items) => calls.push(items), frames.schedule)
    queue.push(1)
    queue.push(2)
    expect(calls).toEqual([[1], [2]])
    expect(queue.waiting).toBe(0)
  })

  it('applies the rest of a burst in one call when the frame ends, in order', () => {
    const frames = manualFrames()
    const calls: number[][] = []
    const queue = new BurstQueue<number>((items) => calls.push(items), frames.schedule)
    const burst = Array.from({ length: 5000 }, (_, i) => i)
    for (const n of burst) queue.push(n)
    expect(calls).toHaveLength(SYNC_PER_FRAME)
    expect(queue.waiting).toBe(5000 - SYNC_PER_FRAME)
    expect(frames.pending()).toBe(1)
    frames.end()
    expect(calls).toHaveLength(SYNC_PER_FRAME + 1)
    expect(calls.flat()).toEqual(burst)
    // A new frame applies at once again.
    queue.push(5000)
    expect(calls.at(-1)).toEqual([5000])
  })

  it('flush applies what waits at once (before a frame that may refer to it), and nothing twice', () => {
    const frames = manualFrames()
    const calls: number[][] = []
    const queue = new BurstQueue<number>((items) => calls.push(items), frames.schedule)
    for (let i = 0; i < SYNC_PER_FRAME + 3; i++) queue.push(i)
    queue.flush()
    expect(calls.at(-1)).toEqual([SYNC_PER_FRAME, SYNC_PER_FRAME + 1, SYNC_PER_FRAME + 2])
    queue.flush()
    frames.end()
    expect(calls.flat()).toHaveLength(SYNC_PER_FRAME + 3)
  })

  it('an item that arrives while others wait waits behind them (order is kept)', () => {
    const frames = manualFrames()
    const calls: number[][] = []
    const queue = new BurstQueue<number>((items) => calls.push(items), frames.schedule)
    for (let i = 0; i < SYNC_PER_FRAME + 1; i++) queue.push(i)
    queue.push(99)
    expect(calls.flat()).not.toContain(99)
    frames.end()
    expect(calls.flat().slice(-2)).toEqual([SYNC_PER_FRAME, 99])
  })

  it('dispose drops what waits and cancels the frame', () => {
    const frames = manualFrames()
    const calls: number[][] = []
    const queue = new BurstQueue<number>((items) => calls.push(items), frames.schedule)
    for (let i = 0; i < SYNC_PER_FRAME + 2; i++) queue.push(i)
    queue.dispose()
    expect(frames.pending()).toBe(0)
    frames.end()
    expect(calls.flat()).toHaveLength(SYNC_PER_FRAME)
  })
})

describe('nextFrame', () => {
  it('runs once at the next frame of its clock, and not again when the timeout passes', async () => {
    const clock = new ManualClock()
    let runs = 0
    nextFrame(clock)(() => runs++)
    expect(runs).toBe(0)
    await clock.frame()
    expect(runs).toBe(1)
    await clock.advance(FRAME_TIMEOUT_MS)
    expect(runs).toBe(1)
  })

  it('runs once after FRAME_TIMEOUT_MS when no frame comes (a hidden window), and not again at a later frame', async () => {
    const clock = new ManualClock()
    let runs = 0
    nextFrame(clock)(() => runs++)
    await clock.advance(FRAME_TIMEOUT_MS - 1)
    expect(runs).toBe(0)
    await clock.advance(1)
    expect(runs).toBe(1)
    await clock.frame()
    expect(runs).toBe(1)
  })

  it('a cancelled run never runs', async () => {
    const clock = new ManualClock()
    let runs = 0
    nextFrame(clock)(() => runs++)()
    await clock.frame()
    await clock.advance(FRAME_TIMEOUT_MS)
    expect(runs).toBe(0)
  })
})
