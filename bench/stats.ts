// Small statistics helpers for the benchmark. Samples are plain numbers; percentiles are nearest-rank.

/** Nearest-rank percentile (p in 0..100) of an unsorted sample; NaN for an empty sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1] as number
}

export const median = (samples: readonly number[]): number => percentile(samples, 50)

export interface Summary {
  n: number
  p50: number
  p90: number
  p95: number
  p99: number
  max: number
  mean: number
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length
  const mean = n === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / n
  return {
    n,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: n === 0 ? Number.NaN : Math.max(...samples),
    mean,
  }
}

/** Rounds for JSON output (keeps the file readable). */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value
  const f = 10 ** digits
  return Math.round(value * f) / f
}

export function roundSummary(s: Summary, digits = 3): Summary {
  return {
    n: s.n,
    p50: round(s.p50, digits),
    p90: round(s.p90, digits),
    p95: round(s.p95, digits),
    p99: round(s.p99, digits),
    max: round(s.max, digits),
    mean: round(s.mean, digits),
  }
}
