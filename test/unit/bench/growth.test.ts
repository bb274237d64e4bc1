// The cost growth table's one-word verdicts (bench/growth.ts): the exponent between the two largest inboxes.
import { describe, expect, it } from 'vitest'
import { classifyGrowth } from '../../../bench/growth'

const points = (...values: number[]) =>
  [100, 1000, 10000].slice(0, values.length).map((size, i) => ({ size, value: values[i] as number }))

describe('classifyGrowth', () => {
  it('flat, sublinear, linear or worse, from the two largest inboxes', () => {
    expect(classifyGrowth(points(3, 2.6, 2.5))).toBe('flat')
    expect(classifyGrowth(points(120, 125, 150))).toBe('flat')
    expect(classifyGrowth(points(27, 276, 1027))).toBe('sublinear')
    expect(classifyGrowth(points(1, 10, 100))).toBe('linear')
    expect(classifyGrowth(points(1, 10, 1000))).toBe('worse')
    expect(classifyGrowth(points(1, 1000, 10))).toBe('flat') // a figure that shrinks does not grow
  })

  it('has no verdict without two sizes and positive values', () => {
    expect(classifyGrowth(points(5))).toBeUndefined()
    expect(classifyGrowth(points(0, 0))).toBeUndefined()
    expect(
      classifyGrowth([
        { size: 10, value: 1 },
        { size: 10, value: 2 },
      ]),
    ).toBeUndefined()
  })
})
