// How long a window's claim on a mirrored ask waits for the relay: a connected relay, however slow, is
// waited for (settling here would overrule a desk the relay already told "accepted"); a relay whose link
// has been down for the bound is given up on, so local agents never depend on it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { claimPatience, MIRROR_CLAIM_CEILING_MS, MIRROR_CLAIM_MS } from '../../../core/relay-bridge/mirror-claim'

describe('claimPatience', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('waits for a connected relay past the bound, up to the ceiling', () => {
    const patience = claimPatience(() => true, MIRROR_CLAIM_MS)
    vi.advanceTimersByTime(MIRROR_CLAIM_MS * 3)
    expect(patience.signal.aborted).toBe(false)
    vi.advanceTimersByTime(MIRROR_CLAIM_CEILING_MS)
    expect(patience.signal.aborted).toBe(true)
    expect(String(patience.signal.reason)).toContain('no reply within 30 s')
  })

  it('gives up once the link has been down for the bound in a row', () => {
    let up = true
    const patience = claimPatience(() => up, MIRROR_CLAIM_MS)
    vi.advanceTimersByTime(2_000)
    up = false
    vi.advanceTimersByTime(MIRROR_CLAIM_MS - 500)
    expect(patience.signal.aborted).toBe(false)
    // Back briefly: the count starts again.
    up = true
    vi.advanceTimersByTime(500)
    up = false
    vi.advanceTimersByTime(MIRROR_CLAIM_MS - 500)
    expect(patience.signal.aborted).toBe(false)
    vi.advanceTimersByTime(1_000)
    expect(patience.signal.aborted).toBe(true)
    expect(String(patience.signal.reason)).toContain('unreachable for 5 s')
  })

  it('stops its timer when the claim settled', () => {
    const patience = claimPatience(() => false, MIRROR_CLAIM_MS)
    patience.stop()
    vi.advanceTimersByTime(MIRROR_CLAIM_CEILING_MS)
    expect(patience.signal.aborted).toBe(false)
  })
})
