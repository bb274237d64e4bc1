// 3. The person's side, in Debian's Chromium driven by Playwright, through the page the core serves
// (`staticDir` = the built out/renderer; the same thing `ask-user serve` serves).
//
// Ask → visible: one agent sends an ask with a unique question text; "visible" is the first
// MutationObserver callback in the page after which a text node containing that question text
// exists in the document and its element passes `checkVisibility()` (DOM committed, not hidden; the
// frame that paints it follows — its start is reported too). Times are taken in the page on
// `performance.timeOrigin + performance.now()` and brought onto the bench's clock with an offset
// calibrated over CDP round trips. The question text is looked for inside the selected ask's
// detail pane (`VIEW_SELECTOR`). Each ask is then answered in the page with the keyboard (1, Enter)
// and the next one is sent once the page has removed the previous one (the inbox is empty).
//
// 1,000-ask inbox: 1,000 asks are pending (20 agents × 50) before a fresh page loads. Measured in
// the page: from the `snapshot` frame reaching JavaScript (a listener added ahead of the app's own)
// to the first MutationObserver callback after which every one of the 1,000 asks has a row in the
// DOM (counted by `ROW_SELECTOR`), plus the start of the next animation frame, plus the same moment
// counted from navigation start, plus the first callback with at least one row (for a list that
// renders in chunks).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import type { WebSocket } from 'ws'
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium-path.mjs'
import { round, summarize, type Summary } from './stats'
import { closeSocket, openAgent, openWindow, parse, sleep, withTimeout, type ServerChild } from './util'


/** One inbox row per pending ask in the renderer (see docs/performance.md for what this relies on). */
export const ROW_SELECTOR = '[data-testid="ask-item"]'
/** The detail pane of the selected ask (its question text is what "visible" waits for). */
export const VIEW_SELECTOR = '[data-testid="ask-view"]'

export interface BrowserResult {
  chromiumVersion: string
  visible: { samples: number; dom: Summary; frame: Summary; clockUncertaintyMs: number; failures: number; keyboardFallbacks: number }
  inbox: {
    asks: number
    loads: number
    snapshotToFirstRowMs: Summary
    snapshotToDomMs: Summary
    snapshotToFrameMs: Summary
    navigationToDomMs: Summary
    rowsCounted: number[]
  }
}

// The global `performance` (not node:perf_hooks): functions here are also serialized into the page.
const nowEpoch = (): number => performance.timeOrigin + performance.now()

/** Offset (page epoch-ms minus bench epoch-ms) from the tightest of several CDP round trips. */
async function calibrate(page: Page): Promise<{ offset: number; uncertainty: number }> {
  let best = { offset: 0, uncertainty: Number.POSITIVE_INFINITY }
  for (let i = 0; i < 30; i++) {
    const before = nowEpoch()
    const pageT = await page.evaluate(() => performance.timeOrigin + performance.now())
    const after = nowEpoch()
    const half = (after - before) / 2
    if (half < best.uncertainty) best = { offset: pageT - (before + half), uncertainty: half }
  }
  return best
}

/** Installed in every page before its scripts run. */
function pageProbe(selectors: { row: string; view: string }): void {
  const rowSelector = selectors.row
  const w = window as any
  const bench = (w.__bench = { want: null as string | null, snapshotAt: null as number | null, inbox: null as any })
  const findVisible = (text: string): boolean => {
    for (const view of document.querySelectorAll(selectors.view)) {
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeValue && n.nodeValue.includes(text)) {
          const el = n.parentElement
          if (el && el.checkVisibility()) return true
        }
      }
    }
    return false
  }
  const check = (): void => {
    if (bench.want && findVisible(bench.want)) {
      const t = performance.timeOrigin + performance.now()
      const want = bench.want
      bench.want = null
      requestAnimationFrame(() => w.benchVisible(want, t, performance.timeOrigin + performance.now()))
    }
    if (bench.inbox && !bench.inbox.done) {
      const rows = document.querySelectorAll(rowSelector).length
      if (rows > 0 && bench.inbox.firstRowAt === undefined) bench.inbox.firstRowAt = performance.now()
      if (rows >= bench.inbox.expect) {
        const t = performance.now()
        bench.inbox.done = true
        requestAnimationFrame(() => {
          bench.inbox.result = { rows, snapshotAt: bench.snapshotAt, firstRowAt: bench.inbox.firstRowAt, domAt: t, frameAt: performance.now() }
        })
      }
    }
  }
  const OriginalWebSocket = window.WebSocket
  class ProbedWebSocket extends OriginalWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols)
      this.addEventListener('message', (e: MessageEvent) => {
        if (bench.snapshotAt === null && typeof e.data === 'string' && e.data.startsWith('{"type":"snapshot"')) {
          bench.snapshotAt = performance.now()
        }
      })
    }
  }
  w.WebSocket = ProbedWebSocket
  const start = (): void => {
    new MutationObserver(check).observe(document.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    })
  }
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
}

async function newProbedPage(browser: Browser, expectRows: number | null): Promise<Page> {
  const page = await browser.newPage()
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`))
  await page.addInitScript(pageProbe, { row: ROW_SELECTOR, view: VIEW_SELECTOR })
  if (expectRows !== null) {
    await page.addInitScript((expect: number) => {
      ;(window as any).__bench.inbox = { expect, done: false, result: null }
    }, expectRows)
  }
  return page
}

export async function runBrowser(
  server: ServerChild,
  opts: { asks: number; inboxAsks: number; inboxLoads: number; profileDir?: string },
): Promise<BrowserResult> {
  const { agentUrl, uiUrl, token, pageUrl } = server.info
  if (!pageUrl) throw new Error('the core reported no pageUrl')
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS })
  try {
    const chromiumVersion = browser.version()

    // --- ask → visible ---
    const page = await newProbedPage(browser, null)
    let seen: ((v: { t: number; tf: number }) => void) | undefined
    await page.exposeFunction('benchVisible', (_want: string, t: number, tf: number) => seen?.({ t, tf }))
    await page.goto(pageUrl)
    await withTimeout(page.waitForFunction(() => (window as any).__bench.snapshotAt !== null), 15_000, 'the page to get its snapshot')
    await sleep(300)
    const clock = await calibrate(page)

    const { ws: uiWs } = await openWindow(uiUrl, token)
    const shown = new Map<string, { askId: string; qid: string; label: string }>()
    uiWs.on('message', (data) => {
      const f = parse(data)
      if (f.type === 'question/added') {
        const q = f.ask.questions[0]
        shown.set(q.question, { askId: f.ask.askId, qid: q.id, label: q.options[0].label })
      }
    })
    const agent = await openAgent(agentUrl, token, 'bench-visible')
    let answered: ((id: string) => void) | undefined
    agent.on('message', (data) => {
      const f = parse(data)
      if (f.type === 'answer') answered?.(f.id)
    })
    const nonce = Math.random().toString(36).slice(2, 8)
    const dom: number[] = []
    const frame: number[] = []
    let failures = 0
    let keyboardFallbacks = 0
    for (let i = 0; i < opts.asks; i++) {
      const text = `Bench visible question ${i} ${nonce}: deploy to staging?`
      await page.evaluate((t) => ((window as any).__bench.want = t), text)
      const visible = new Promise<{ t: number; tf: number }>((resolve) => (seen = resolve))
      const gotAnswer = new Promise<string>((resolve) => (answered = resolve))
      const t0 = nowEpoch()
      agent.send(JSON.stringify({ type: 'ask', id: `v${i}`, questions: [{ id: 'q1', question: text, options: [{ label: 'Yes' }, { label: 'No' }] }] }))
      try {
        const v = await withTimeout(visible, 5_000, `question ${i} to be visible`)
        dom.push(v.t - clock.offset - t0)
        frame.push(v.tf - clock.offset - t0)
      } catch (error) {
        failures++
        if (failures <= 3) console.error(`  ${(error as Error).message}`)
      }
      // The person answers in the page, keyboard first: digit 1 picks the first option, Enter submits.
      // If that does not reach the agent, the scripted window answers instead (the card then
      // lingers in the page for its settled notice, so wait until it is gone).
      await page.keyboard.press('1')
      await page.keyboard.press('Enter')
      const id = await withTimeout(gotAnswer, 2_000, `answer to visible ask ${i}`).catch(() => undefined)
      if (id === undefined) {
        keyboardFallbacks++
        const s = shown.get(text)
        if (s) uiWs.send(JSON.stringify({ type: 'answer', askId: s.askId, answers: [{ id: s.qid, selected: [s.label] }] }))
        await withTimeout(gotAnswer, 5_000, `answer to visible ask ${i}`).catch(() => failures++)
      }
      await page
        .waitForFunction((sel) => document.querySelectorAll(sel).length === 0, ROW_SELECTOR, { timeout: 5_000, polling: 'raf' })
        .catch(() => undefined)
    }
    await closeSocket(agent)
    await page.close()

    // --- 1,000-ask inbox ---
    const perAgent = 50
    const inboxAgents: WebSocket[] = []
    let shownCount = 0
    let allShown: (() => void) | undefined
    uiWs.on('message', (data) => {
      if (parse(data).type === 'question/added' && ++shownCount >= opts.inboxAsks) allShown?.()
    })
    const shownPromise = new Promise<void>((resolve) => (allShown = resolve))
    for (let a = 0; a * perAgent < opts.inboxAsks; a++) {
      const ws = await openAgent(agentUrl, token, `inbox-agent-${a}`)
      inboxAgents.push(ws)
      for (let k = 0; k < perAgent && a * perAgent + k < opts.inboxAsks; k++) {
        const n = a * perAgent + k
        ws.send(
          JSON.stringify({
            type: 'ask',
            id: `i${k}`,
            title: `Inbox task ${n}`,
            questions: [
              { id: 'q1', header: `Step ${n}`, question: `Inbox question ${n}: which option?`, options: [{ label: 'One' }, { label: 'Two' }] },
            ],
          }),
        )
      }
    }
    await withTimeout(shownPromise, 30_000, `${opts.inboxAsks} asks pending`)
    const snapshotToDom: number[] = []
    const snapshotToFirstRow: number[] = []
    const snapshotToFrame: number[] = []
    const navigationToDom: number[] = []
    const rowsCounted: number[] = []
    for (let l = 0; l < opts.inboxLoads; l++) {
      const p = await newProbedPage(browser, opts.inboxAsks)
      // With --cpu-prof=DIR, the first inbox load is profiled in the page (Chromium's V8 profiler).
      const cdp = opts.profileDir && l === 0 ? await p.context().newCDPSession(p) : undefined
      if (cdp) {
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
        await cdp.send('Profiler.start')
      }
      await p.goto(pageUrl)
      const r = await withTimeout(
        p.waitForFunction(() => (window as any).__bench.inbox.result, undefined, { timeout: 20_000 }).then((h) => h.jsonValue()),
        25_000,
        'the 1,000-ask inbox to render',
      ).catch(async (error: Error) => {
        const rows = await p.evaluate((sel) => document.querySelectorAll(sel).length, ROW_SELECTOR).catch(() => -1)
        console.error(`  inbox load ${l}: ${error.message} (rows matching ${ROW_SELECTOR}: ${rows})`)
        return null
      })
      if (cdp && opts.profileDir) {
        const { profile } = await cdp.send('Profiler.stop')
        mkdirSync(opts.profileDir, { recursive: true })
        writeFileSync(join(opts.profileDir, `renderer-inbox-${Date.now()}.cpuprofile`), JSON.stringify(profile))
      }
      await p.close()
      if (!r) continue
      rowsCounted.push(r.rows)
      snapshotToDom.push(r.domAt - r.snapshotAt)
      snapshotToFirstRow.push(r.firstRowAt - r.snapshotAt)
      snapshotToFrame.push(r.frameAt - r.snapshotAt)
      navigationToDom.push(r.domAt)
    }
    for (const ws of inboxAgents) await closeSocket(ws)
    await closeSocket(uiWs)

    return {
      chromiumVersion,
      visible: {
        samples: dom.length,
        dom: summarize(dom),
        frame: summarize(frame),
        clockUncertaintyMs: round(clock.uncertainty, 3),
        failures,
        keyboardFallbacks,
      },
      inbox: {
        asks: opts.inboxAsks,
        loads: opts.inboxLoads,
        snapshotToFirstRowMs: summarize(snapshotToFirstRow),
        snapshotToDomMs: summarize(snapshotToDom),
        snapshotToFrameMs: summarize(snapshotToFrame),
        navigationToDomMs: summarize(navigationToDom),
        rowsCounted,
      },
    }
  } finally {
    await browser.close()
  }
}

