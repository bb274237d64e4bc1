// How fast this machine's Chromium is, in the unit Chrome's own tools use to say what a CPU throttle
// emulates: Lighthouse's BenchmarkIndex (two loops of equal length, one building 10,000-character strings
// and one copying a 100,000-element array back and forth; each counted per second and divided by 10; the
// index is their mean). Chrome DevTools' CPU calibration aims a throttle at an index of 1000 for a
// mid-tier phone (a Pixel 5) and 264 for a low-tier one (a Moto G4 Power, 2022). A "4× slower" figure
// means a different phone on every machine; this says which.
import type { CDPSession, Page } from '@playwright/test'

/** The index Chrome DevTools' calibration takes for a mid-tier phone (a Pixel 5). */
export const MID_TIER_PHONE_INDEX = 1000
/** The index Chrome DevTools' calibration takes for a low-tier phone (a Moto G4 Power, 2022). */
export const LOW_TIER_PHONE_INDEX = 264

/** One BenchmarkIndex reading in `page`, its two loops `totalMs` long together (DevTools uses 250 ms). */
export function benchmarkIndex(page: Page, totalMs = 250): Promise<number> {
  return page.evaluate((half) => {
    let start = Date.now()
    let strings = 0
    while (Date.now() - start < half) {
      let built = ''
      for (let i = 0; i < 10_000; i++) built += 'a'
      if (built.length !== 10_000) throw new Error('unreachable: keeps the loop from being optimised away')
      strings++
    }
    const stringRate = strings / 10 / ((Date.now() - start) / 1000)
    const left: number[] = []
    const right: number[] = []
    for (let i = 0; i < 100_000; i++) left[i] = right[i] = i
    start = Date.now()
    let copies = 0
    // The clock is read every tenth copy only (a clock read per copy slows some CPUs unevenly).
    while (copies % 10 !== 0 || Date.now() - start < half) {
      const [from, to] = copies % 2 === 0 ? [left, right] : [right, left]
      for (let i = 0; i < from.length; i++) to[i] = from[i]!
      copies++
    }
    const copyRate = copies / 10 / ((Date.now() - start) / 1000)
    return Math.round((stringRate + copyRate) / 2)
  }, totalMs / 2)
}

/** The median of `count` readings (the first run of a page only warms V8 up and is not counted). */
export async function steadyBenchmarkIndex(page: Page, count = 3): Promise<number> {
  await benchmarkIndex(page)
  const readings: number[] = []
  for (let i = 0; i < count; i++) readings.push(await benchmarkIndex(page))
  readings.sort((a, b) => a - b)
  return readings[Math.floor(readings.length / 2)]!
}

export interface CpuCalibration {
  /** This machine's index, unthrottled. */
  unthrottled: number
  /** Its index at the throttle the bench's phone figures use. */
  atRate: { rate: number; index: number }
  /**
   * The throttle that brings the index to {@link MID_TIER_PHONE_INDEX} (bisected as DevTools does), or 1
   * when this machine is slower than that already (`slowerThanTarget`: an unthrottled figure is then an
   * upper bound for a mid-tier phone).
   */
  midTier: { rate: number; index: number; slowerThanTarget: boolean }
}

/** Reads the indexes above in `page` (left unthrottled). */
export async function calibrateCpu(page: Page, cdp: CDPSession, rate: number): Promise<CpuCalibration> {
  const throttle = (to: number): Promise<unknown> => cdp.send('Emulation.setCPUThrottlingRate', { rate: to })
  const indexAt = async (to: number): Promise<number> => {
    await throttle(to)
    return steadyBenchmarkIndex(page)
  }
  try {
    const unthrottled = await indexAt(1)
    const atRate = { rate, index: await indexAt(rate) }
    if (unthrottled <= MID_TIER_PHONE_INDEX)
      return { unthrottled, atRate, midTier: { rate: 1, index: unthrottled, slowerThanTarget: true } }
    // The index falls as the throttle rises; halve the interval until within 5 % of the target.
    let low = 1
    let high = Math.max(2, (unthrottled / MID_TIER_PHONE_INDEX) * 1.5)
    let best = { rate: 1, index: unthrottled }
    for (let step = 0; step < 8; step++) {
      const middle = Math.round(((low + high) / 2) * 100) / 100 // Chromium keeps hundredths
      const index = await indexAt(middle)
      if (Math.abs(index - MID_TIER_PHONE_INDEX) < Math.abs(best.index - MID_TIER_PHONE_INDEX))
        best = { rate: middle, index }
      if (Math.abs(index - MID_TIER_PHONE_INDEX) <= MID_TIER_PHONE_INDEX * 0.05) break
      if (index > MID_TIER_PHONE_INDEX) low = middle
      else high = middle
    }
    return { unthrottled, atRate, midTier: { ...best, slowerThanTarget: false } }
  } finally {
    await throttle(1)
  }
}
