// The relay desk's presence marks carried to the windows (core/relay-bridge/presence-marks.ts): the
// real registry and window hub, a desk standing in only for its presence events. A lapse marks every
// listed remote ask of that agent (`ask/origin` with `unreachableSince`), later windows get it in their
// snapshot, the ask stays answerable, and the agent's return clears the mark. v1 windows are sent nothing.
import { afterEach, describe, expect, it } from 'vitest'
import { followPresence, withCurrentPresence } from '../../../core/relay-bridge/presence-marks'
import { toV1Frame } from '../../../core/ui-v1'
import type { PresenceChange } from '../../../relay/exchange'
import type { AskOrigin, QuestionAsk } from '../../../shared/ask'
import type { UiServerFrame } from '../../../shared/ui'
import { startCore, type CoreHarness } from './core-harness'

type OriginFrame = Extract<UiServerFrame, { type: 'ask/origin' }>

const ORIGIN: AskOrigin = { kind: 'relay', agentId: 'id-devbox' }
const QUESTION = { id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }

function presenceSource(): { onPresence(l: (c: PresenceChange) => void): () => void; emit(c: PresenceChange): void } {
  const listeners = new Set<(c: PresenceChange) => void>()
  return {
    onPresence: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    emit: (change) => listeners.forEach((listener) => listener(change)),
  }
}

describe('presence marks in the windows', () => {
  let core: CoreHarness
  afterEach(() => core.shutdown())

  it('a lapse marks the agent’s remote asks (and only those), the ask stays answerable, the return clears the mark', async () => {
    core = startCore()
    const submitted: unknown[] = []
    const remote = (agent: string, title: string) =>
      core.registry.add({
        kind: 'question',
        agent: { name: agent },
        title,
        questions: [QUESTION],
        origin: ORIGIN,
        wireId: `q.${agent}.${title}`,
        owner: {
          settled: () => true,
          submit: async (_key, answers) => {
            submitted.push(answers)
            return { outcome: 'answered', answers }
          },
        },
      }) as QuestionAsk
    const first = remote('devbox', 'one')
    const other = remote('sandbox', 'two')
    const listed = [first.askId, other.askId]
    const desk = presenceSource()
    followPresence(desk, core.registry, () => listed)
    const window = core.attachWindow()

    const marked = window.nextFrame<OriginFrame>((f) => f.type === 'ask/origin')
    desk.emit({ agent: 'devbox', unreachableSince: 1_700_000_000_000 })
    expect(await marked).toEqual({
      type: 'ask/origin',
      askId: first.askId,
      origin: { ...ORIGIN, unreachableSince: 1_700_000_000_000 },
    })
    expect(window.frames.filter((f) => f.type === 'ask/origin')).toHaveLength(1)
    expect(toV1Frame(await marked)).toBeUndefined()
    // A window opening now sees the mark in its snapshot; the other agent's ask is untouched.
    const later = core.attachWindow()
    const inSnapshot = (askId: string) => later.snapshot.pending.find((ask) => ask.askId === askId) as QuestionAsk
    expect(inSnapshot(first.askId).origin).toEqual({ ...ORIGIN, unreachableSince: 1_700_000_000_000 })
    expect(inSnapshot(other.askId).origin).toEqual(ORIGIN)

    const cleared = window.nextFrame<OriginFrame>(
      (f) => f.type === 'ask/origin' && f.origin.unreachableSince === undefined,
    )
    desk.emit({ agent: 'devbox' })
    expect((await cleared).origin).toEqual(ORIGIN)

    desk.emit({ agent: 'devbox', unreachableSince: 1_700_000_100_000 })
    const reply = await window.answer(first.askId, [{ id: 'go', selected: ['Yes'] }])
    expect(reply).toMatchObject({ type: 'ask/accepted', askId: first.askId, outcome: 'answered' })
    expect(submitted).toEqual([[{ id: 'go', selected: ['Yes'] }]])
    expect(core.warnings).toEqual([])
  })

  it('an ask listed while its agent is already unreachable carries the mark from the start', () => {
    const input = { kind: 'question' as const, agent: { name: 'devbox' }, origin: ORIGIN }
    expect(withCurrentPresence(input, { unreachableSince: () => 42 })).toEqual({
      ...input,
      origin: { ...ORIGIN, unreachableSince: 42 },
    })
    expect(withCurrentPresence(input, { unreachableSince: () => undefined })).toBe(input)
    expect(withCurrentPresence(input, undefined)).toBe(input)
  })
})
