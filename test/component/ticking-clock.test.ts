import { describe, expect, it } from 'vitest'
import { TickingClock } from '../../renderer/src/state/clock.svelte'
import { ManualClock } from './manual-clock'

describe('TickingClock', () => {
  it('reads its view clock once a tick while started, and not after stop', async () => {
    const source = new ManualClock()
    await source.advance(5000)
    const ticking = new TickingClock(source)
    expect(ticking.now).toBe(5000)
    ticking.start(1000)
    ticking.start(1000) // idempotent: still one tick a second
    await source.advance(999)
    expect(ticking.now).toBe(5000)
    await source.advance(1)
    expect(ticking.now).toBe(6000)
    await source.advance(2000)
    expect(ticking.now).toBe(8000)
    ticking.stop()
    await source.advance(3000)
    expect(ticking.now).toBe(8000)
  })
})
