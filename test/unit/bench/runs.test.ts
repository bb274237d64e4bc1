// The `--runs N` summary: medians, min–max, goals judged on the median.
import { describe, expect, it } from 'vitest'
import { median, medianRows, meetsGoal } from '../../../bench/runs'
import type { Row } from '../../../bench/report'

const row = (value: number, status: Row['status'] = 'info'): Row => ({
  metric: 'server CPU per ask ours/floor',
  measured: `${value.toFixed(2)}×`,
  goal: '≤ 1.25×',
  status,
  value,
})

describe('bench --runs', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
  })

  it('reads goals written as ≤ / ≥ bounds', () => {
    expect(meetsGoal('≤ 1.25×', 1.2)).toBe(true)
    expect(meetsGoal('≤ 1.25×', 1.3)).toBe(false)
    expect(meetsGoal('≥ 0.7', 0.69)).toBe(false)
    expect(meetsGoal('≤ 1,000 ms', 999)).toBe(true)
    expect(meetsGoal('', 1)).toBeUndefined()
  })

  it('prints the median run with the min–max and judges the goal on the median, not on any one run', () => {
    const [summary] = medianRows([
      [row(1.1, 'pass')],
      [row(1.4, 'miss')],
      [row(1.3, 'miss')],
      [row(1.2, 'pass')],
      [row(1.5, 'miss')],
    ])
    expect(summary).toEqual({
      metric: 'server CPU per ask ours/floor',
      measured: '1.30× [1.10–1.50, n=5]',
      goal: '≤ 1.25×',
      status: 'miss',
      value: 1.3,
    })
  })

  it('keeps a row without a number from the last run, and a single run as it is', () => {
    const info: Row = { metric: 'round trip p50: floor / ours', measured: '80 µs / 95 µs', goal: '', status: 'info' }
    expect(medianRows([[info], [{ ...info, measured: '81 µs / 96 µs' }]])).toEqual([
      { ...info, measured: '81 µs / 96 µs' },
    ])
    expect(medianRows([[row(1.2, 'pass')]])).toEqual([row(1.2, 'pass')])
  })
})
