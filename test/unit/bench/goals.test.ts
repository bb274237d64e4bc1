// The bench's goal table and its command line: which rows are judged, and how its options read.
import { describe, expect, it } from 'vitest'
import { parseBenchArgs, SECTIONS } from '../../../bench/args'
import { goalFor, judge } from '../../../bench/goals'
import { tableOf } from '../../../bench/measurements'
import { phoneFirstScreenRows } from '../../../bench/phone-first-screen'

describe('bench goals', () => {
  it('reports CPU per ask and asks settled per second as information, with no goal', () => {
    for (const metric of [
      'server CPU per ask ours/floor',
      'asks settled/s ours/floor',
      'asks settled/s (1000 agents × 10)',
      'round trip p50 ours/floor',
    ]) {
      expect(goalFor(metric)).toBeUndefined()
      expect(judge({ metric, measured: '9.99×', value: 9.99 })).toEqual({
        metric,
        measured: '9.99×',
        value: 9.99,
        goal: '',
        status: 'info',
      })
    }
  })

  it('judges a row by its goal, by name or by pattern, and a goal row without a number misses', () => {
    expect(judge({ metric: 'ask-user mcp / node -e 0', measured: '1.32×', value: 1.32 })).toMatchObject({
      goal: '≤ 1.60×',
      status: 'pass',
    })
    expect(judge({ metric: 'ask-user mcp / node -e 0', measured: '1.61×', value: 1.61 })).toMatchObject({
      status: 'miss',
    })
    expect(
      judge({ metric: 'Markdown block, nested lists: ours/markdown-it', measured: '2.10×', value: 2.1 }),
    ).toMatchObject({ goal: '≤ 2.00×', status: 'miss' })
    expect(judge({ metric: 'ask → visible p50 (0 asks)', measured: '0.0 ms', value: Number.NaN })).toMatchObject({
      goal: '≤ 50 ms',
      status: 'miss',
    })
    expect(judge({ metric: 'scale', measured: 'n/a (refused)', status: 'n/a' })).toEqual({
      metric: 'scale',
      measured: 'n/a (refused)',
      goal: '',
      status: 'n/a',
    })
  })

  it('counts any crossed, lost, duplicated or missing answer at scale as a miss', () => {
    const scale = {
      agents: 2,
      asksPerAgent: 5,
      crossed: 0,
      lost: 0,
      duplicates: 0,
      pendingReached: 10,
      settledPerSec: 100,
      settleCpuPerAskUs: 5,
      perPendingBytes: { rss: 1024, heapUsed: 512 },
      perConnectionBytes: { rss: 2048, heapUsed: 1024 },
    }
    const crossed = (over: object) =>
      tableOf({ scale: { ...scale, ...over } as never }).find((row) => row.metric === 'crossed / lost (of 10)')
    expect(crossed({})).toMatchObject({ measured: '0 / 0', goal: '≤ 0', status: 'pass' })
    expect(crossed({ duplicates: 1 })).toMatchObject({ status: 'miss' })
    expect(crossed({ pendingReached: 9 })).toMatchObject({ status: 'miss' })
  })
})

describe('the phone rows', () => {
  const outcome = {
    asks: 20,
    coldMs: 2700,
    warmMs: 1100,
    warmRangeMs: [1000, 1300] as [number, number],
    workerServed: true,
    warmBusyMs: 1000,
    warmScriptMs: 400,
    warmEntryMs: 500,
    firstScreenGzipBytes: 171 * 1024,
    gzipBytes: 311 * 1024,
    cpu: {
      unthrottled: 1300,
      atRate: { rate: 4, index: 390 },
      midTier: { rate: 1.57, index: 983, slowerThanTarget: false },
    },
    midTierWarmMs: 600,
    warmFirstQuestionMs: 800,
    midTierFirstQuestionMs: 450,
  }
  const judged = (over: object = {}) => phoneFirstScreenRows({ ...outcome, ...over }).map(judge)

  it('judges the warm load at 4× against 1 s and the first screen against 200 KiB; the rest is information', () => {
    const rows = judged()
    expect(rows.find((row) => row.metric.startsWith('phone: 20 asks listed, warm (service worker'))).toMatchObject({
      goal: '≤ 1000 ms',
      status: 'miss',
    })
    expect(rows.find((row) => row.metric.startsWith('phone first screen transferred'))).toMatchObject({
      measured: '171.0 KiB',
      goal: '≤ 200 KiB',
      status: 'pass',
    })
    expect(rows.filter((row) => row.goal !== '')).toHaveLength(2)
    expect(judged({ warmMs: 900 }).find((row) => row.goal === '≤ 1000 ms')).toMatchObject({ status: 'pass' })
  })

  it('reports the first question on screen at both CPUs, as information', () => {
    expect(
      judged().find((row) => row.metric.startsWith('phone: first question on screen, warm (median of 5)')),
    ).toMatchObject({ measured: '800.0 ms / 450.0 ms', goal: '', status: 'info' })
  })

  it('says what 4× means on this machine, and at which throttle the mid-tier figure was taken', () => {
    const metrics = judged().map((row) => row.metric)
    expect(metrics).toContain(
      "phone: this machine's CPU index (Lighthouse BenchmarkIndex) unthrottled / 4× slower (a Pixel 5 ≈ 1000, a Moto G4 Power ≈ 264)",
    )
    const midTier = 'phone: 20 asks listed, warm (median of 5), CPU of a mid-tier phone (index 1000)'
    expect(judged().find((row) => row.metric === midTier)).toMatchObject({
      measured: '600.0 ms (1.57× slower: index 983)',
      status: 'info',
    })
    const slower = judged({
      cpu: { ...outcome.cpu, unthrottled: 800, midTier: { rate: 1, index: 800, slowerThanTarget: true } },
    })
    expect(slower.find((row) => row.metric === midTier)).toMatchObject({
      measured: "600.0 ms (unthrottled: this machine's index is 800)",
    })
  })
})

describe('bench arguments', () => {
  const root = '/repo'
  it('reads every section by default, and --only, --runs and --quick', () => {
    expect(parseBenchArgs([], root, '/here')).toEqual({
      quick: false,
      only: new Set(SECTIONS),
      runs: 1,
      noHistory: false,
      help: false,
    })
    expect(
      parseBenchArgs(['--quick', '--only=startup,scale,nonsense', '--runs', '3', '--no-history'], root, '/here'),
    ).toEqual({
      quick: true,
      only: new Set(['startup', 'scale']),
      runs: 3,
      noHistory: true,
      help: false,
    })
  })

  it('takes --json with or without a file', () => {
    expect(parseBenchArgs(['--json'], root, '/here').json).toBe('/repo/bench-results/latest.json')
    expect(parseBenchArgs(['--json', '--quick'], root, '/here')).toMatchObject({
      json: '/repo/bench-results/latest.json',
      quick: true,
    })
    expect(parseBenchArgs(['--json', 'out.json'], root, '/here').json).toBe('/here/out.json')
  })

  it('refuses an unknown option and a run count that is not a whole number', () => {
    expect(() => parseBenchArgs(['--fast'], root)).toThrow("Unknown option '--fast'")
    expect(() => parseBenchArgs(['--runs=0'], root)).toThrow('--runs needs a whole number (1 or more), not "0"')
  })
})
