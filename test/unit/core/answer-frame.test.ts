// The hand check in front of zod must decide exactly as UiAnswerFrameSchema does, with the same data.
import { describe, expect, it, vi } from 'vitest'
import { checkAnswerFrame } from '../../../core/answer-frame'
import { UiAnswerFrameSchema } from '../../../shared/ui'

const askIds: unknown[] = ['1.k1', '', 7, null, undefined, ['1.k1']]
const inherited = Object.create({ custom: 'from the prototype' }) as Record<string, unknown>
inherited['id'] = 'q1'
inherited['selected'] = ['A']
const answerItems: unknown[] = [
  { id: 'q1', selected: ['A'] },
  { id: 'q1', selected: [] },
  { id: 'q1', selected: ['A', 'B'], custom: 'my own words' },
  { id: 'q1', selected: ['A'], custom: '' },
  { id: 'q1', selected: ['A'], custom: undefined },
  { id: 'q1', selected: ['A'], custom: null },
  { id: 'q1', selected: ['A'], custom: 3 },
  { id: 'q1', selected: ['A'], extra: 'stripped', nested: { deep: true } },
  { id: 'q1', selected: [1] },
  { id: 'q1', selected: ['A', null] },
  { id: 'q1', selected: 'A' },
  { id: 'q1' },
  { selected: ['A'] },
  { id: 1, selected: ['A'] },
  inherited,
  null,
  'q1',
  ['q1', ['A']],
]
const answerLists: unknown[] = [[], ...answerItems.map((item) => [item]), [answerItems[0], answerItems[2]], [answerItems[0], answerItems[8]], 'x', null, {}]

describe('checkAnswerFrame', () => {
  it('decides every askId × answers as UiAnswerFrameSchema does, with the same data or the same issues', () => {
    for (const askId of askIds) {
      for (const answers of answerLists) {
        const raw: Record<string, unknown> = { type: 'answer', answers, unknownKey: 1 }
        if (askId !== undefined) raw['askId'] = askId
        const zod = UiAnswerFrameSchema.safeParse(raw)
        const ours = checkAnswerFrame(raw)
        const label = JSON.stringify({ askId, answers })
        expect(ours.success, label).toBe(zod.success)
        if (ours.success && zod.success) expect(ours.data, label).toStrictEqual(zod.data)
        if (!ours.success && !zod.success) expect(ours.error.issues, label).toEqual(zod.error.issues)
      }
    }
  })

  it('checks the common frames without zod', () => {
    const safeParse = vi.spyOn(UiAnswerFrameSchema, 'safeParse')
    try {
      for (const answers of [[], [{ id: 'q1', selected: ['A'] }], [{ id: 'q1', selected: [], custom: 'words' }]]) {
        expect(checkAnswerFrame({ type: 'answer', askId: '1.k1', answers }).success).toBe(true)
      }
      expect(safeParse).not.toHaveBeenCalled()
      expect(checkAnswerFrame({ type: 'answer', askId: '1.k1', answers: [{ id: 'q1', selected: [2] }] }).success).toBe(false)
      expect(safeParse).toHaveBeenCalledTimes(1)
    } finally {
      safeParse.mockRestore()
    }
  })

  it('copies what it keeps: changing the input afterwards does not change the checked frame', () => {
    const selected = ['A']
    const checked = checkAnswerFrame({ type: 'answer', askId: '1.k1', answers: [{ id: 'q1', selected }] })
    selected.push('B')
    expect(checked.success && checked.data.answers[0]?.selected).toEqual(['A'])
  })

  it('leaves a frame of another type to zod, which refuses it', () => {
    expect(checkAnswerFrame({ type: 'decide', askId: '1.k1', answers: [] }).success).toBe(false)
  })
})
