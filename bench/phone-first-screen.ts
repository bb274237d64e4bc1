// The phone app's first screen: 20 asks pending on a local nats-server (a real agent asked them), the
// built app (out/phone) at 390 px with the CPU throttled 4×, time from the navigation's start until all
// 20 are listed (and until the first question is on screen, what the person reads first), as the page's
// own clock sees it; cold (fresh browser context: no cache, no service worker) and warm (later loads with the service
// worker and its cache in place: the median of WARM_LOADS, the machine is shared). What 4× emulates
// depends on the machine, so the bench also reads this machine's CPU index and times the warm load once
// more at the throttle of a mid-tier phone (cpu-index.ts). Plus the app's transferred size: what the cold
// first screen fetched, and every file of out/phone, gzip'd. Reported, never asserted.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import { RemoteAsker } from '../relay/exchange'
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium-path.mjs'
import { natsServerSkipReason } from '../test/helpers/nats-server'
import { serveStatic } from '../test/e2e/support/static-server'
import { phoneRecordOf, storePhoneRecordInPage } from '../test/helpers/phone-record'
import { startRelayWorld, until } from '../test/unit/relay/exchange/relay-world'
import { calibrateCpu, LOW_TIER_PHONE_INDEX, MID_TIER_PHONE_INDEX, type CpuCalibration } from './cpu-index'
import type { Measurement } from './goals'
import { ms } from './report'
import { median } from './stats'

/** How many warm loads the warm figure is the median of. */
const WARM_LOADS = 5

/** The CPU throttle of the phone figures (the issue's "4× slower"). */
const CPU_SLOWDOWN = 4

export type PhoneFirstScreenOutcome =
  | { skipped: string }
  | {
      asks: number
      coldMs: number
      /** The median of {@link WARM_LOADS} warm loads, and their fastest and slowest. */
      warmMs: number
      warmRangeMs: [number, number]
      /** Whether the service worker controlled the warm loads (else they are the HTTP cache only). */
      workerServed: boolean
      /**
       * The warm loads' main-thread work until listed (Chromium's `TaskDuration`, and its `ScriptDuration`
       * part), medians: less sensitive to the shared machine's waits than the time to listed.
       */
      warmBusyMs: number
      warmScriptMs: number
      /** The warm loads' DOMContentLoaded (the entry's modules fetched and evaluated), median. */
      warmEntryMs: number
      /** The files the cold load fetched before the asks were listed, gzip'd. */
      firstScreenGzipBytes: number
      gzipBytes: number
      /** What the throttle means on this machine (cpu-index.ts). */
      cpu: CpuCalibration
      /** The warm median at the CPU of a mid-tier phone ({@link CpuCalibration.midTier}). */
      midTierWarmMs: number
      /** The warm loads' first question on screen, median: at 4× and at a mid-tier phone's CPU. */
      warmFirstQuestionMs: number
      midTierFirstQuestionMs: number
    }

/** The gzip'd size of every file under `folder` (what a first visit transfers at most). */
export function gzipSizeOf(folder: string): number {
  let total = 0
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += gzipSync(readFileSync(join(entry.parentPath, entry.name))).length
  }
  return total
}

/** The gzip'd size of the files of `folder` that `paths` (URL paths from the app's root) name. */
function gzipSizeOfFiles(folder: string, paths: Iterable<string>): number {
  let total = 0
  for (const path of paths) {
    const file = path === '/' ? 'index.html' : path.slice(1)
    try {
      total += gzipSync(readFileSync(join(folder, file))).length
    } catch {
      // not a file of the build (the seed page): nothing transferred from the app
    }
  }
  return total
}

/** When a load showed what: ms from the navigation's start (the document's time origin). */
interface LoadTimes {
  /** The first frame with a question card on screen: what the person reads first. */
  firstQuestionMs: number
  /** The first frame at which the top bar counts every ask pending: the first screen, whole. */
  listedMs: number
}

/**
 * The page's own watch, checked at every animation frame (just before it paints): a promise, in the page,
 * of the {@link LoadTimes} of this load. Plain script sent over CDP, not Playwright's `waitForFunction`:
 * that one first evaluates Playwright's injected script in the new page, about 110 ms of a 4×-throttled
 * main thread (traced), and polls through it; no person's phone pays either.
 */
function loadProbe(origin: string, asks: number, timeoutMs: number): string {
  return `new Promise((resolve, reject) => {
    if (location.origin !== ${JSON.stringify(origin)}) return reject(new Error('probe ran in ' + location.href))
    const give = setTimeout(() => reject(new Error('not listed within ${timeoutMs} ms')), ${timeoutMs})
    let firstQuestionMs
    const check = () => {
      const now = performance.now()
      if (firstQuestionMs === undefined && document.querySelector('[data-testid="question"]')) firstQuestionMs = now
      const shown = document.querySelector('[data-testid="pending-count"]')?.textContent?.match(/\\d+/)?.[0]
      if (shown === '${asks}' && firstQuestionMs !== undefined) {
        clearTimeout(give)
        resolve({ firstQuestionMs, listedMs: now })
      } else requestAnimationFrame(check)
    }
    check()
  })`
}

/** Navigates the throttled page to `url` and returns when it showed its first question and all `asks`. */
async function timeLoad({ page, cdp }: ThrottledPage, url: string, asks: number): Promise<LoadTimes> {
  await page.goto(url, { waitUntil: 'commit' })
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: loadProbe(new URL(url).origin, asks, 120_000),
    awaitPromise: true,
    returnByValue: true,
  })
  if (exceptionDetails)
    throw new Error(`the page's probe failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
  return result.value as LoadTimes
}

interface ThrottledPage {
  page: Page
  cdp: CDPSession
}

async function throttled(context: BrowserContext, rate = CPU_SLOWDOWN): Promise<ThrottledPage> {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  await cdp.send('Performance.enable')
  return { page, cdp }
}

/**
 * Runs the measurement against the built app in `appDir` (out/phone). With `profileDir`, the first warm
 * load is also profiled (Chromium's V8 sampling profiler, `phone-warm-<time>.cpuprofile` in that folder):
 * the profiler's own cost makes that load slower, so it is one more load, not one of the measured.
 */
export async function runPhoneFirstScreen(
  appDir: string,
  asks = 20,
  profileDir?: string,
): Promise<PhoneFirstScreenOutcome> {
  const skip = natsServerSkipReason()
  if (skip) return { skipped: skip }
  const app = await serveStatic(appDir)
  const world = await startRelayWorld({ devices: ['phone'], agents: ['ci-nightly'], browserOrigin: app.origin })
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS })
  try {
    const agent = new RemoteAsker({
      link: await world.link('ci-nightly'),
      agent: world.members.get('ci-nightly')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    let asked = 0
    for (let i = 0; i < asks; i++) {
      agent
        .ask([{ id: 'q', question: `Question ${i}?`, options: [{ label: 'Yes' }, { label: 'No' }] }], {
          onEvent: (e) => void (e.type === 'asked' && asked++),
        })
        .catch(() => undefined)
    }
    await until(() => asked === asks, 'the asks to be written', 60_000)
    const record = phoneRecordOf(world, world.wsUrl)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
    // The record goes in from a blank page of the app's origin, so the measured load starts cold.
    await context.route(`${app.origin}/seed`, (route) => route.fulfill({ contentType: 'text/html', body: '' }))
    const seed = await context.newPage()
    await seed.goto(`${app.origin}/seed`)
    await seed.evaluate(storePhoneRecordInPage, record)
    await seed.close()
    const cold = await throttled(context)
    const { page } = cold
    const fetched = new Set<string>()
    page.on('request', (request) => void fetched.add(new URL(request.url()).pathname))
    const { listedMs: coldMs } = await timeLoad(cold, `${app.origin}/`, asks)
    const firstScreenGzipBytes = gzipSizeOfFiles(appDir, fetched)
    process.stderr.write(`bench: phone cold ${coldMs.toFixed(0)} ms\n`)
    await page.close()
    // The worker installs after the first screen; the warm load starts once it controls the origin.
    const waiter = await context.newPage()
    await waiter.goto(`${app.origin}/`)
    const controlled = await waiter
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 })
      .then(
        () => true,
        () => false,
      )
    await waiter.close()
    if (profileDir !== undefined) {
      const profiled = await throttled(context)
      const { cdp } = profiled
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
      await cdp.send('Profiler.start')
      await timeLoad(profiled, `${app.origin}/`, asks)
      const { profile } = await cdp.send('Profiler.stop')
      mkdirSync(profileDir, { recursive: true })
      writeFileSync(join(profileDir, `phone-warm-${Date.now()}.cpuprofile`), JSON.stringify(profile))
      await profiled.page.close()
    }
    const warmLoads: number[] = []
    const warmFirstQuestion: number[] = []
    const warmBusy: number[] = []
    const warmScript: number[] = []
    const warmEntry: number[] = []
    let workerServed = controlled
    for (let i = 0; i < WARM_LOADS; i++) {
      const loaded = await throttled(context)
      const { page: warm, cdp } = loaded
      const times = await timeLoad(loaded, `${app.origin}/`, asks)
      warmLoads.push(times.listedMs)
      warmFirstQuestion.push(times.firstQuestionMs)
      const { metrics } = await cdp.send('Performance.getMetrics')
      const seconds = (name: string): number => metrics.find((metric) => metric.name === name)?.value ?? NaN
      warmBusy.push(seconds('TaskDuration') * 1_000)
      warmScript.push(seconds('ScriptDuration') * 1_000)
      warmEntry.push(
        await warm.evaluate(
          () =>
            (window.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
              .domContentLoadedEventStart,
        ),
      )
      workerServed &&= await warm.evaluate(() => navigator.serviceWorker.controller !== null)
      await warm.close()
    }
    // What "4× slower" means here, and the same warm load at a mid-tier phone's CPU (cpu-index.ts).
    const { page: calibrating, cdp: calibratingCdp } = await throttled(context, 1)
    await calibrating.goto(`${app.origin}/seed`)
    const cpu = await calibrateCpu(calibrating, calibratingCdp, CPU_SLOWDOWN)
    await calibrating.close()
    const midTierLoads: number[] = []
    const midTierFirstQuestion: number[] = []
    for (let i = 0; i < WARM_LOADS; i++) {
      const loaded = await throttled(context, cpu.midTier.rate)
      const times = await timeLoad(loaded, `${app.origin}/`, asks)
      midTierLoads.push(times.listedMs)
      midTierFirstQuestion.push(times.firstQuestionMs)
      await loaded.page.close()
    }
    await context.close()
    return {
      asks,
      coldMs,
      warmMs: median(warmLoads),
      warmRangeMs: [Math.min(...warmLoads), Math.max(...warmLoads)],
      workerServed,
      warmBusyMs: median(warmBusy),
      warmScriptMs: median(warmScript),
      warmEntryMs: median(warmEntry),
      firstScreenGzipBytes,
      gzipBytes: gzipSizeOf(appDir),
      cpu,
      midTierWarmMs: median(midTierLoads),
      warmFirstQuestionMs: median(warmFirstQuestion),
      midTierFirstQuestionMs: median(midTierFirstQuestion),
    }
  } finally {
    await browser.close()
    await world.close()
    await app.close()
  }
}

/** The bench table's rows for the phone's first screen. */
export function phoneFirstScreenRows(outcome: PhoneFirstScreenOutcome): Measurement[] {
  if ('skipped' in outcome)
    return [{ metric: 'phone first screen', measured: `n/a (${outcome.skipped.slice(0, 60)})`, status: 'n/a' }]
  return [
    {
      metric: `phone: ${outcome.asks} asks listed, cold, CPU ${CPU_SLOWDOWN}× slower`,
      measured: ms(outcome.coldMs),
      value: outcome.coldMs,
    },
    {
      metric: `phone: ${outcome.asks} asks listed, warm (${outcome.workerServed ? 'service worker' : 'HTTP cache only'}, median of ${WARM_LOADS}), CPU ${CPU_SLOWDOWN}× slower`,
      measured: `${ms(outcome.warmMs)} [${ms(outcome.warmRangeMs[0])}–${ms(outcome.warmRangeMs[1])}]`,
      value: outcome.warmMs,
    },
    {
      metric: `phone: this machine's CPU index (Lighthouse BenchmarkIndex) unthrottled / ${CPU_SLOWDOWN}× slower (a Pixel 5 ≈ ${MID_TIER_PHONE_INDEX}, a Moto G4 Power ≈ ${LOW_TIER_PHONE_INDEX})`,
      measured: `${outcome.cpu.unthrottled} / ${outcome.cpu.atRate.index}`,
      value: outcome.cpu.atRate.index,
    },
    {
      // The throttle differs run to run (so does the machine), so it goes with the figure, not the name.
      metric: `phone: ${outcome.asks} asks listed, warm (median of ${WARM_LOADS}), CPU of a mid-tier phone (index ${MID_TIER_PHONE_INDEX})`,
      measured: `${ms(outcome.midTierWarmMs)} (${
        outcome.cpu.midTier.slowerThanTarget
          ? `unthrottled: this machine's index is ${outcome.cpu.unthrottled}`
          : `${outcome.cpu.midTier.rate}× slower: index ${outcome.cpu.midTier.index}`
      })`,
      value: outcome.midTierWarmMs,
    },
    {
      metric: `phone: first question on screen, warm (median of ${WARM_LOADS}), CPU ${CPU_SLOWDOWN}× slower / of a mid-tier phone`,
      measured: `${ms(outcome.warmFirstQuestionMs)} / ${ms(outcome.midTierFirstQuestionMs)}`,
      value: outcome.warmFirstQuestionMs,
    },
    {
      metric: `phone: warm load's main thread busy until listed (of it, scripts), median, CPU ${CPU_SLOWDOWN}× slower`,
      measured: `${ms(outcome.warmBusyMs)} (${ms(outcome.warmScriptMs)})`,
      value: outcome.warmBusyMs,
    },
    {
      metric: `phone: warm load's entry evaluated (DOMContentLoaded), median, CPU ${CPU_SLOWDOWN}× slower`,
      measured: ms(outcome.warmEntryMs),
      value: outcome.warmEntryMs,
    },
    {
      metric: 'phone first screen transferred (files fetched until listed, gzip)',
      measured: `${(outcome.firstScreenGzipBytes / 1024).toFixed(1)} KiB`,
      value: outcome.firstScreenGzipBytes / 1024,
    },
    {
      metric: 'phone app transferred size (all of out/phone, gzip)',
      measured: `${(outcome.gzipBytes / 1024).toFixed(1)} KiB`,
      value: outcome.gzipBytes,
    },
  ]
}
