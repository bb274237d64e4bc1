// The bench's goals: what a person or an agent would feel, one line each. A figure with no goal here is
// reported as information (CPU per ask and asks settled per second among them: docs/performance.md says
// why). The bench never fails on a goal; the table says pass or miss.
import type { Row } from './report'
import { meetsGoal } from './runs'

/** A goal: the rows it judges (one metric, or a pattern for a family of rows) and its bound as printed. */
export interface Goal {
  metric: string | RegExp
  /** `≤ N unit` or `≥ N unit`, judged on the row's `value` (in the unit the bound names). */
  bound: string
}

/** Every goal of the bench. */
export const GOALS: readonly Goal[] = [
  { metric: 'core RSS per pending ask', bound: '≤ 10 KB' },
  { metric: 'core RSS per agent connection ours/floor', bound: '≤ 1.30×' },
  { metric: /^crossed \/ lost \(of \d+\)$/, bound: '≤ 0' },
  { metric: /^ask → visible p50/, bound: '≤ 50 ms' },
  { metric: '1000-ask inbox: snapshot → first screen', bound: '≤ 120 ms' },
  { metric: '10000-ask inbox: snapshot → first screen', bound: '≤ 150 ms' },
  { metric: '10000-ask inbox: next ask p50', bound: '≤ 16 ms' },
  { metric: '10000-ask inbox: next ask p95', bound: '≤ 33 ms' },
  { metric: /-ask inbox: next ask p50, 4 KB Markdown detail$/, bound: '≤ 33 ms' },
  { metric: 'inbox first screen 10000/1000', bound: '≤ 1.3' },
  { metric: 'ask-user ask / node -e 0', bound: '≤ 2.00×' },
  { metric: 'ask-user mcp / node -e 0', bound: '≤ 1.60×' },
  { metric: 'ask-user hook (no companion) / node -e 0', bound: '≤ 1.50×' },
  { metric: 'ask-user hook (answered) / node -e 0', bound: '≤ 2.00×' },
  { metric: 'start-up failures', bound: '≤ 0' },
  { metric: /^Markdown .*: ours\/markdown-it$/, bound: '≤ 2.00×' },
  { metric: /^phone: \d+ asks listed, warm \(service worker, median of \d+\), CPU 4× slower$/, bound: '≤ 1000 ms' },
  { metric: 'phone first screen transferred (files fetched until listed, gzip)', bound: '≤ 200 KiB' },
]

/** What a section measured, before it is judged: a row without its goal and verdict. */
export type Measurement = Omit<Row, 'goal' | 'status'> & { status?: 'n/a' }

/** The goal that judges `metric`, if any. */
export function goalFor(metric: string): Goal | undefined {
  return GOALS.find((goal) => (typeof goal.metric === 'string' ? goal.metric === metric : goal.metric.test(metric)))
}

/**
 * A measurement as a row of the table: `info` without a goal, `n/a` when the section could not measure
 * it, else `pass` or `miss` by its goal (a goal row without a finite value misses).
 */
export function judge(measurement: Measurement): Row {
  const { status, ...rest } = measurement
  const goal = goalFor(measurement.metric)
  if (status === 'n/a') return { ...rest, goal: goal?.bound ?? '', status }
  if (!goal) return { ...rest, goal: '', status: 'info' }
  const value = measurement.value
  const met = value !== undefined && Number.isFinite(value) && meetsGoal(goal.bound, value) === true
  return { ...rest, goal: goal.bound, status: met ? 'pass' : 'miss' }
}
