// The registry's hook for a local ask the relay mirror claims first (Registry.submitThrough): a window's
// answer settles by what the hook resolves with; another desk's answer (given with answeredOn) never
// goes through it; without the hook the ask answers as any local ask.
import { describe, expect, it } from 'vitest'
import { answeredElsewhere, Registry, type Refusal, type Settlement } from '../../../core/registry'
import type { Answer } from '../../../shared/answer'

const questions = [{ id: 'q1', question: 'Pick one', options: [{ label: 'A' }, { label: 'B' }] }]
const pickA: Answer[] = [{ id: 'q1', selected: ['A'] }]
const pickB: Answer[] = [{ id: 'q1', selected: ['B'] }]

function setup() {
  const registry = new Registry(
    () => 1000,
    () => undefined,
  )
  const told: Settlement[] = []
  const ask = registry.add({
    kind: 'question',
    agent: { name: 'claude' },
    questions,
    wireId: 'w1',
    owner: { settled: (_wireId, settlement) => told.push(settlement) > 0 },
  })
  return { registry, told, ask }
}

/** A hook whose outcome the test decides, and the answers it was given. */
function heldHook() {
  const given: Answer[][] = []
  let decide!: (result: Settlement | Refusal) => void
  const hook = (answers: Answer[]): Promise<Settlement | Refusal> => {
    given.push(answers)
    return new Promise((resolve) => (decide = resolve))
  }
  return { hook, given, decide: (result: Settlement | Refusal) => decide(result) }
}

describe('Registry.submitThrough', () => {
  it("a window's answer waits for the hook: a win settles the ask once, with the window's answers", async () => {
    const { registry, told, ask } = setup()
    const held = heldHook()
    expect(registry.submitThrough(ask.askId, held.hook)).toBe(true)
    const outcome = registry.answer(ask.askId, pickA)
    expect(outcome).toBeInstanceOf(Promise)
    expect(held.given).toEqual([pickA])
    expect(told).toEqual([])
    expect(registry.size).toBe(1)
    // A second window's answer while the first is on its way is refused; the ask stays.
    expect(await registry.answer(ask.askId, pickB)).toMatchObject({ ok: false, code: 'INVALID_ANSWER' })
    held.decide({ outcome: 'answered', answers: pickA })
    expect(await outcome).toEqual({ ok: true, delivered: true })
    expect(told).toEqual([{ outcome: 'answered', answers: pickA }])
    expect(registry.size).toBe(0)
  })

  it("a refusal keeps the ask pending and tells the agent nothing; another desk's answer then settles it", async () => {
    const { registry, told, ask } = setup()
    const held = heldHook()
    registry.submitThrough(ask.askId, held.hook)
    const outcome = registry.answer(ask.askId, pickA)
    // The relay's answer arrives while the claim is out: it bypasses the hook and settles at once.
    expect(registry.answer(ask.askId, pickB, 'laptop-b')).toEqual({ ok: true, delivered: true })
    held.decide(answeredElsewhere('laptop-b'))
    expect(await outcome).toEqual({
      ok: false,
      code: 'NOT_PENDING',
      message: 'answered on laptop-b first; your answer was not sent',
    })
    expect(held.given).toEqual([pickA])
    expect(told).toEqual([{ outcome: 'answered', answers: pickB, answeredOn: 'laptop-b' }])
  })

  it('without the hook (or with it taken away) an answer settles at once; approvals and unknown asks take none', () => {
    const { registry, told, ask } = setup()
    const held = heldHook()
    registry.submitThrough(ask.askId, held.hook)
    expect(registry.submitThrough(ask.askId, undefined)).toBe(true)
    expect(registry.answer(ask.askId, pickA)).toEqual({ ok: true, delivered: true })
    expect(held.given).toEqual([])
    expect(told).toEqual([{ outcome: 'answered', answers: pickA }])
    expect(registry.submitThrough(ask.askId, held.hook)).toBe(false)
    const approval = registry.add({
      kind: 'approval',
      agent: { name: 'claude' },
      approval: { tool: 'Bash', action: { kind: 'command', command: 'ls' } },
      wireId: 'w2',
      owner: { settled: () => true },
    })
    expect(registry.submitThrough(approval.askId, held.hook)).toBe(false)
  })
})
