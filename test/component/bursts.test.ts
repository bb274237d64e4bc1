// Thousands of `question/added` right after a bounded snapshot: applied together, in order with other frames.
import { cleanup, screen, waitFor } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SYNC_PER_FRAME } from '../../renderer/src/state/burst-queue'
import type { UiServerFrame } from '../../shared/ui'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => cleanup())

const added = (askId: string, receivedAt: number): UiServerFrame => ({
  type: 'ask/added',
  ask: makeAsk({ askId, receivedAt }),
})

describe('a burst of question/added', () => {
  it('shows the first asks at once, the rest by the end of the frame, and keeps the card on screen', async () => {
    const now = Date.now()
    const { bridge, store } = await renderInbox([makeAsk({ askId: 'first', receivedAt: now - 10_000 })])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('first')
    // All frames of the burst in one task, as the WebSocket delivers them back to back.
    const burst = Array.from({ length: 500 }, (_, i) => added(`b${i}`, now - 5_000 + i))
    await Promise.all(burst.map((frame) => bridge.emit(frame)))
    expect(store.asks.length).toBe(1 + SYNC_PER_FRAME)
    await waitFor(() => expect(screen.getByTestId('pending-count').textContent).toBe('501 pending'))
    expect(store.order).toHaveLength(501)
    // Same agent: one group, oldest first; the card the person was looking at stays.
    expect(store.order.slice(0, 3)).toEqual(['first', 'b0', 'b1'])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('first')
    expect(screen.getAllByTestId('ask-item').length).toBeLessThan(40)
    expect(document.querySelector('li[aria-posinset]')?.getAttribute('aria-setsize')).toBe('501')
  })

  it('a frame about a waiting ask applies the burst first (order is kept)', async () => {
    const now = Date.now()
    const { bridge, store } = await renderInbox([])
    const burst = Array.from({ length: 50 }, (_, i) => added(`w${i}`, now - 1_000 + i))
    void Promise.all(burst.map((frame) => bridge.emit(frame)))
    // w40 is still waiting for the frame's end when the companion says it was answered elsewhere.
    await bridge.emit({ type: 'ask/settled', askId: 'w40', outcome: 'answered' })
    expect(store.asks.map((ask) => ask.askId)).not.toContain('w40')
    expect(store.asks).toHaveLength(49)
    expect(screen.getByTestId('pending-count').textContent).toBe('49 pending')
  })

  it('a focus request for an ask still waiting in the burst shows it', async () => {
    const now = Date.now()
    const { bridge } = await renderInbox([])
    const burst = Array.from({ length: 30 }, (_, i) => added(`f${i}`, now - 1_000 + i))
    void Promise.all(burst.map((frame) => bridge.emit(frame)))
    await bridge.focusAsk('f25')
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('f25')
  })

  it('the rest of the inbox arriving never changes the card on screen: asks sorting above it get a cue', async () => {
    // This test asserted the opposite until the arming rule (docs/ui.md "The card you see"): the selection
    // used to follow the top of the list until the person picked an ask, so a click meant for the card on
    // screen could land on one that arrived a moment before.
    const now = Date.now()
    const agent = (name: string) => ({ name, pid: 1 })
    const { bridge, store, user } = await renderInbox([
      makeAsk({ askId: 'old', agent: agent('old-agent'), receivedAt: now - 60_000 }),
    ])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('old')
    // Another agent's asks that have waited longer (the list puts the longest wait first), so they sort above.
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({ askId: 'new-1', agent: agent('new-agent'), receivedAt: now - 120_000 }),
    })
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({ askId: 'new-2', agent: agent('new-agent'), receivedAt: now - 119_900 }),
    })
    await waitFor(() => expect(store.order).toEqual(['new-1', 'new-2', 'old']))
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('old')
    const cues = () =>
      screen
        .getAllByTestId('ask-item')
        .filter((item) => item.dataset.unseen === 'true')
        .map((item) => item.dataset.askId)
    expect(cues()).toEqual(['new-1', 'new-2'])
    // Shown once, an ask is no longer new.
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'new-1')!)
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('new-1')
    expect(cues()).toEqual(['new-2'])
  })

  it('the rest of a bounded snapshot is the inbox at connect: no cues, the first card in list order shows until the person picks one', async () => {
    const now = Date.now()
    const agent = (name: string) => ({ name, pid: 1 })
    const { bridge, store } = await renderInbox([])
    await bridge.emit({
      type: 'snapshot',
      pending: [makeAsk({ askId: 'old', agent: agent('old-agent'), receivedAt: now - 60_000 })],
      restUntil: now - 900,
    })
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('old')
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({ askId: 'new-1', agent: agent('new-agent'), receivedAt: now - 120_000 }),
    })
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({ askId: 'new-2', agent: agent('new-agent'), receivedAt: now - 119_900 }),
    })
    await waitFor(() => expect(store.order).toEqual(['new-1', 'new-2', 'old']))
    await waitFor(() => expect(screen.getByTestId('ask-view').dataset.askId).toBe('new-1'))
    const cues = () =>
      screen
        .getAllByTestId('ask-item')
        .filter((item) => item.dataset.unseen === 'true')
        .map((item) => item.dataset.askId)
    expect(cues()).toEqual([])
    // After the rest, an ask that really is new only joins the list with a cue.
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({ askId: 'newest', agent: agent('newest-agent'), receivedAt: now }),
    })
    await waitFor(() => expect(store.order.at(-1)).toBe('newest'))
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('new-1')
    expect(cues()).toEqual(['newest'])
  })
})
