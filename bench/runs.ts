// `--runs N`: the bench repeats every section N times (ours and the floor still alternate inside each
// section) and reports each figure as its median over the runs, with the min–max beside it. Goals are
// judged on the median: same-build A/A runs on a 2-core machine move single figures by ±25 %.
import type { Row } from './report'

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  if (sorted.length === 0) return Number.NaN
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** Judges `value` against a goal written as `≤ 1.50×`, `≥ 0.7` or `≤ 120 ms`; undefined when the goal has no bound. */
export function meetsGoal(goal: string, value: number): boolean | undefined {
  const bound = /^([≤≥<>])\s*([\d.,]+)/.exec(goal.trim())
  if (!bound) return undefined
  const limit = Number((bound[2] as string).replace(/,/g, ''))
  return bound[1] === '≤' || bound[1] === '<' ? value <= limit : value >= limit
}

const short = (v: number): string =>
  Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2)

/**
 * One table from the tables of N runs: per metric (in the first run's order), the run whose value is
 * the median's nearest gives the printed figure, followed by `[min–max]` of all runs; the goal is
 * judged on the median. A metric without a number keeps its last run's row.
 */
export function medianRows(tables: readonly (readonly Row[])[]): Row[] {
  if (tables.length === 1) return [...(tables[0] ?? [])]
  const metrics = [...new Set(tables.flatMap((table) => table.map((row) => row.metric)))]
  return metrics.map((metric) => {
    const rows = tables
      .map((table) => table.find((row) => row.metric === metric))
      .filter((row): row is Row => row !== undefined)
    const numbered = rows.filter((row) => typeof row.value === 'number' && Number.isFinite(row.value))
    const last = rows[rows.length - 1] as Row
    if (numbered.length === 0) return last
    const values = numbered.map((row) => row.value as number)
    const mid = median(values)
    const nearest = numbered.reduce((best, row) =>
      Math.abs((row.value as number) - mid) < Math.abs((best.value as number) - mid) ? row : best,
    )
    const verdict = meetsGoal(last.goal, mid)
    return {
      metric,
      measured: `${nearest.measured} [${short(Math.min(...values))}–${short(Math.max(...values))}, n=${values.length}]`,
      goal: last.goal,
      status: verdict === undefined ? last.status : verdict ? 'pass' : 'miss',
      value: mid,
    }
  })
}
