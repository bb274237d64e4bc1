import { describe, expect, it, vi } from 'vitest'
import { Registry, type Settlement } from '../../../core/registry'

const questions = [{ id: 'q1', question: 'Pick one', options: [{ label: 'A' }, { label: 'B' }] }]

function setup() {
  const warnings: string[] = []
  const registry = new Registry(
    () => 1000,
    (m) => warnings.push(m),
  )
  const settled: Array<[string, Settlement]> = []
  const owner = { settled: (wireId: string, s: Settlement): boolean => settled.push([wireId, s]) > 0 }
  return { registry, warnings, settled, owner }
}

describe('Registry', () => {
  it('mints unique askIds, keeps pending oldest first, stamps receivedAt', () => {
    const { registry, owner } = setup()
    const a = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: '1', owner })
    const b = registry.add({ kind: 'question', agent: { name: 'x' }, title: 't', questions, wireId: '2', owner })
    expect(a.askId).not.toBe(b.askId)
    expect(a).toMatchObject({ receivedAt: 1000 })
    expect(a).not.toHaveProperty('title')
    expect(registry.pending()).toEqual([a, b])
  })

  it('settles exactly once: the first answer wins, later attempts are NOT_PENDING', () => {
    const { registry, owner, settled } = setup()
    const resolved = vi.fn()
    registry.onResolved(resolved)
    const ask = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    expect(registry.answer(ask.askId, [{ id: 'q1', selected: ['B'] }])).toEqual({ ok: true, delivered: true })
    expect(registry.answer(ask.askId, [{ id: 'q1', selected: ['A'] }])).toMatchObject({
      ok: false,
      code: 'NOT_PENDING',
    })
    expect(registry.dismiss(ask.askId)).toMatchObject({ ok: false, code: 'NOT_PENDING' })
    expect(registry.settle(ask.askId, { outcome: 'agent-gone' })).toBe(false)
    expect(settled).toEqual([['w', { outcome: 'answered', answers: [{ id: 'q1', selected: ['B'] }] }]])
    expect(resolved).toHaveBeenCalledTimes(1)
  })

  it("an answer given on another desk (a mirrored ask) is checked like a window's and settles with where it was given", () => {
    const { registry, owner, settled } = setup()
    const ask = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    expect(registry.answer(ask.askId, [{ id: 'q1', selected: ['A', 'B'] }], 'laptop-b')).toMatchObject({
      ok: false,
      code: 'INVALID_ANSWER',
    })
    expect(registry.answer(ask.askId, [{ id: 'q1', selected: ['B'] }], 'laptop-b')).toEqual({
      ok: true,
      delivered: true,
    })
    expect(settled).toEqual([
      ['w', { outcome: 'answered', answers: [{ id: 'q1', selected: ['B'] }], answeredOn: 'laptop-b' }],
    ])
  })

  it('canonicalizes answers (key order, no unused custom)', () => {
    const { registry, owner, settled } = setup()
    const ask = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    registry.answer(ask.askId, [{ custom: 'mine', selected: [], id: 'q1' }])
    expect(JSON.stringify(settled[0]![1])).toBe(
      '{"outcome":"answered","answers":[{"id":"q1","selected":[],"custom":"mine"}]}',
    )
  })

  it('refuses rule-breaking answers with INVALID_ANSWER and keeps the ask pending', () => {
    const { registry, owner } = setup()
    const ask = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    expect(registry.answer(ask.askId, [{ id: 'q1', selected: ['A', 'B'] }])).toEqual({
      ok: false,
      code: 'INVALID_ANSWER',
      message: 'answer 1 ("q1"): single-select question, but 2 options are selected',
    })
    expect(registry.answer(ask.askId, [])).toMatchObject({ code: 'INVALID_ANSWER' })
    expect(registry.size).toBe(1)
  })

  it('a throwing listener is reported and does not stop settlement or other listeners', () => {
    const { registry, owner, warnings, settled } = setup()
    const second = vi.fn()
    registry.onResolved(() => {
      throw new Error('boom')
    })
    registry.onResolved(second)
    const ask = registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    expect(registry.dismiss(ask.askId)).toEqual({ ok: true })
    expect(settled).toHaveLength(1)
    expect(second).toHaveBeenCalledWith(ask, { outcome: 'cancelled' }, 1000, true)
    expect(warnings).toEqual(['listener failed: boom'])
  })

  it('unsubscribes', () => {
    const { registry, owner } = setup()
    const added = vi.fn()
    const off = registry.onAdded(added)
    off()
    registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: 'w', owner })
    expect(added).not.toHaveBeenCalled()
  })
})
