// The table the bench prints: one row per goal, measured value, goal, pass/miss.
export interface Row {
  metric: string
  measured: string
  goal: string
  status: 'pass' | 'miss' | 'n/a' | 'info'
  value?: number
}

export function formatTable(rows: readonly Row[]): string {
  const head = { metric: 'metric', measured: 'measured', goal: 'goal', status: 'result' }
  const all = [head, ...rows.map((r) => ({ metric: r.metric, measured: r.measured, goal: r.goal, status: r.status }))]
  const w = {
    metric: Math.max(...all.map((r) => r.metric.length)),
    measured: Math.max(...all.map((r) => r.measured.length)),
    goal: Math.max(...all.map((r) => r.goal.length)),
    status: Math.max(...all.map((r) => r.status.length)),
  }
  const line = (r: typeof head): string =>
    `| ${r.metric.padEnd(w.metric)} | ${r.measured.padStart(w.measured)} | ${r.goal.padEnd(w.goal)} | ${r.status.padEnd(w.status)} |`
  const sep = `|${'-'.repeat(w.metric + 2)}|${'-'.repeat(w.measured + 1)}:|${'-'.repeat(w.goal + 2)}|${'-'.repeat(w.status + 2)}|`
  return [line(head), sep, ...all.slice(1).map(line)].join('\n')
}

export const us = (v: number): string => `${Math.round(v)} µs`
export const ms = (v: number, digits = 1): string => `${v.toFixed(digits)} ms`
export const x = (v: number): string => `${v.toFixed(2)}×`
export const passIf = (ok: boolean): 'pass' | 'miss' => (ok ? 'pass' : 'miss')
