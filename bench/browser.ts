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
// Inboxes of 1,000 and 10,000 asks: that many asks are pending (20 or 200 agents × 50) before a fresh
// page loads. First screen, measured in the page: from the `snapshot` frame reaching JavaScript (a
// listener added ahead of the app's own) to the first MutationObserver callback after which the
// selected ask's card is in the DOM and holds the focus, and the list's rows (`ROW_SELECTOR`) reach its
// bottom edge (or every ask has a row); plus the start of the next animation frame, plus the same
// moment counted from navigation start. The list is windowed, so rows past its viewport never exist.
//
// Next ask, on the last load once every ask is in: from the keydown of `]` (a capturing listener ahead
// of the app's) to the MutationObserver callback after which the card pane shows another ask. In the
// 10,000-ask inbox the newest agent (first in the list) asks with a 4 KB Markdown `detail` after its
// first, plain ask: `]` from the first ask walks through those (each card shown for the first time, so
// each step parses); the plain figure is taken on the oldest agents' asks at the end of the list.
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
  visible: {
    samples: number
    dom: Summary
    frame: Summary
    clockUncertaintyMs: number
    failures: number
    keyboardFallbacks: number
  }
  inboxes: InboxResult[]
}

/** One inbox size: first screen over fresh page loads, then `]` through the list in one page. */
export interface InboxResult {
  asks: number
  loads: number
  snapshotToFirstScreenMs: Summary
  snapshotToFrameMs: Summary
  navigationToFirstScreenMs: Summary
  rowsAtFirstScreen: number[]
  nextAskMs?: Summary
  nextAskMarkdownMs?: Summary
  /** The page's JavaScript heap after a forced GC, with this inbox on screen. */
  jsHeapBytes?: number
  /** Bytes and frames the page received until the last ask arrived (the snapshot and the ask/added after it). */
  snapshot?: { bytes: number; frames: number }
  /** From the snapshot to the top bar counting every ask (the bounded snapshot's rest applied), per load. */
  snapshotToAllAsksMs?: Summary
  /** The longest task (Long Tasks API, ≥ 50 ms; 0 = none) from navigation until every ask was in, per load. */
  longestTaskMs?: Summary
}

/** About 4 KB of Markdown: headings, a list, a table, code and links, as an agent's plan might read. */
export function markdownDetail(n: number): string {
  const parts = [
    `## Plan for change ${n}`,
    '',
    'Before I go on, please check the **steps** below and pick one option.',
    '',
  ]
  for (let i = 1; parts.join('\n').length < 3300; i++) {
    parts.push(
      `${i}. Update \`src/module-${i}.ts\`: rename _the_ helper and fix [issue ${i}](https://example.com/issues/${i}).`,
    )
  }
  parts.push(
    '',
    '| file | lines |',
    '|---|--:|',
    '| a.ts | 12 |',
    '| b.ts | 40 |',
    '',
    '```ts',
    'export const answer = 42',
    '```',
    '',
  )
  let text = parts.join('\n')
  while (text.length < 4096) text += '- one more note about the plan\n'
  return text.slice(0, 4096)
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
  const bench = (w.__bench = {
    want: null as string | null,
    snapshotAt: null as number | null,
    inbox: null as any,
    nav: null as any,
    wire: { bytes: 0, frames: 0 },
    longTasks: [] as { start: number; duration: number }[],
  })
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // no Long Tasks API: longestTaskMs stays 0
  }
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
  /** First screen: the card is in the DOM and holds the focus, and rows fill the list's viewport (or all are there). */
  const firstScreen = (): number | undefined => {
    const view = document.querySelector(selectors.view)
    if (!view || !view.contains(document.activeElement)) return undefined
    const rows = document.querySelectorAll(rowSelector)
    const last = rows[rows.length - 1]
    if (!last) return undefined
    if (rows.length >= bench.inbox.expect) return rows.length
    const scroller = last.closest('[data-testid="ask-list"]') ?? last.closest('nav')
    if (!scroller) return undefined
    const bottom = scroller.getBoundingClientRect().bottom
    for (const row of rows) if (row.getBoundingClientRect().bottom >= bottom) return rows.length
    return undefined
  }
  const check = (): void => {
    if (bench.want && findVisible(bench.want)) {
      const t = performance.timeOrigin + performance.now()
      const want = bench.want
      bench.want = null
      requestAnimationFrame(() => w.benchVisible(want, t, performance.timeOrigin + performance.now()))
    }
    if (bench.inbox && !bench.inbox.done && bench.snapshotAt !== null) {
      const rows = firstScreen()
      if (rows !== undefined) {
        const t = performance.now()
        bench.inbox.done = true
        requestAnimationFrame(() => {
          bench.inbox.result = { rows, snapshotAt: bench.snapshotAt, domAt: t, frameAt: performance.now() }
        })
      }
    }
    if (bench.inbox && bench.inbox.allInAt === undefined && bench.snapshotAt !== null) {
      const count = document.querySelector('[data-testid="pending-count"]')?.textContent ?? ''
      if (count.startsWith(`${bench.inbox.expect} `)) bench.inbox.allInAt = performance.now()
    }
    const nav = bench.nav
    if (nav && nav.t0 !== null && !nav.result) {
      const view = document.querySelector(selectors.view) as HTMLElement | null
      if (view && view.dataset.askId !== nav.fromId)
        nav.result = { ms: performance.now() - nav.t0, askId: view.dataset.askId }
    }
  }
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key === ']' && bench.nav && bench.nav.t0 === null) bench.nav.t0 = performance.now()
    },
    { capture: true },
  )
  const OriginalWebSocket = window.WebSocket
  class ProbedWebSocket extends OriginalWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols)
      this.addEventListener('message', (e: MessageEvent) => {
        if (bench.snapshotAt === null && typeof e.data === 'string' && e.data.startsWith('{"type":"snapshot"')) {
          bench.snapshotAt = performance.now()
        }
        // What the inbox arrives in: the snapshot and the ask/added frames that follow it.
        if (
          typeof e.data === 'string' &&
          (e.data.startsWith('{"type":"snapshot"') || e.data.startsWith('{"type":"ask/added"'))
        ) {
          bench.wire.frames++
          bench.wire.bytes += e.data.length
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
    document.addEventListener('focusin', check)
  }
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
}

async function newProbedPage(browser: Browser, expectRows: number | null): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
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
  opts: { asks: number; inboxSizes: number[]; inboxLoads: number; navSteps: number; profileDir?: string },
): Promise<BrowserResult> {
  const { agentUrl, uiUrl, token, windowToken } = server.info
  // Each page load signs in with a one-time link of its own, as `ask-user open` gives one.
  const pageLink = async (): Promise<string> => {
    const link = await server.pageLink()
    if (!link) throw new Error('the core gave no page link')
    return link
  }
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS })
  try {
    const chromiumVersion = browser.version()

    // --- ask → visible ---
    const page = await newProbedPage(browser, null)
    let seen: ((v: { t: number; tf: number }) => void) | undefined
    await page.exposeFunction('benchVisible', (_want: string, t: number, tf: number) => seen?.({ t, tf }))
    await page.goto(await pageLink())
    await withTimeout(
      page.waitForFunction(() => (window as any).__bench.snapshotAt !== null),
      15_000,
      'the page to get its snapshot',
    )
    await sleep(300)
    const clock = await calibrate(page)

    const { ws: uiWs } = await openWindow(uiUrl, windowToken)
    const shown = new Map<string, { askId: string; qid: string; label: string }>()
    uiWs.on('message', (data) => {
      const f = parse(data)
      if (f.type === 'ask/added') {
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
      agent.send(
        JSON.stringify({
          type: 'ask',
          id: `v${i}`,
          questions: [{ id: 'q1', question: text, options: [{ label: 'Yes' }, { label: 'No' }] }],
        }),
      )
      try {
        const v = await withTimeout(visible, 5_000, `question ${i} to be visible`)
        dom.push(v.t - clock.offset - t0)
        frame.push(v.tf - clock.offset - t0)
      } catch (error) {
        failures++
        if (failures <= 3) console.error(`  ${(error as Error).message}`)
      }
      // The person answers in the page, keyboard first: digit 1 picks the first option, Enter submits,
      // once the card is armed (a card that came up on its own ignores keys for a moment: docs/ui.md,
      // "The card you see"). If that does not reach the agent, the scripted window answers instead
      // (the card then lingers in the page for its settled notice, so wait until it is gone).
      await page
        .waitForFunction(
          () => document.querySelector('[data-testid="ask-view"] [data-testid="arming"]') === null,
          undefined,
          { timeout: 5_000, polling: 'raf' },
        )
        .catch(() => undefined)
      await page.keyboard.press('1')
      await page.keyboard.press('Enter')
      const id = await withTimeout(gotAnswer, 2_000, `answer to visible ask ${i}`).catch(() => undefined)
      if (id === undefined) {
        keyboardFallbacks++
        const s = shown.get(text)
        if (s)
          uiWs.send(
            JSON.stringify({ type: 'ask/answer', askId: s.askId, answers: [{ id: s.qid, selected: [s.label] }] }),
          )
        await withTimeout(gotAnswer, 5_000, `answer to visible ask ${i}`).catch(() => failures++)
      }
      await page
        .waitForFunction((sel) => document.querySelectorAll(sel).length === 0, ROW_SELECTOR, {
          timeout: 5_000,
          polling: 'raf',
        })
        .catch(() => undefined)
    }
    await closeSocket(agent)
    await page.close()

    // --- inboxes of 1,000 and 10,000 pending asks (50 per agent) ---
    const perAgent = 50
    const inboxAgents: WebSocket[] = []
    let shownCount = 0
    let target = 0
    let reached: (() => void) | undefined
    uiWs.on('message', (data) => {
      if (parse(data).type === 'ask/added' && ++shownCount >= target) reached?.()
    })
    let agentSeq = 0
    /** Adds `agents` agents × 50 asks and waits until the scripted window has seen them all. */
    const addAgents = async (agents: number, detail: (n: number, k: number) => string | undefined): Promise<void> => {
      target += agents * perAgent
      const all = new Promise<void>((resolve) => (reached = resolve))
      for (let a = 0; a < agents; a++) {
        const ws = await openAgent(agentUrl, token, `inbox-agent-${agentSeq++}`)
        inboxAgents.push(ws)
        for (let k = 0; k < perAgent; k++) {
          const n = inboxAgents.length * perAgent + k
          const markdown = detail(n, k)
          const question = {
            id: 'q1',
            header: `Step ${n}`,
            question: `Inbox question ${n}: which option?`,
            options: [{ label: 'One' }, { label: 'Two' }],
          }
          ws.send(
            JSON.stringify({
              type: 'ask',
              id: `i${k}`,
              title: `Inbox task ${n}`,
              questions: [markdown === undefined ? question : { ...question, detail: markdown }],
            }),
          )
        }
      }
      if (shownCount < target) await withTimeout(all, 120_000, `${target} asks pending`)
    }
    const noDetail = (): undefined => undefined
    const sizes: InboxResult[] = []
    for (const size of opts.inboxSizes) {
      const before = inboxAgents.length * perAgent
      if (size > before) {
        const more = Math.ceil((size - before) / perAgent)
        // The 10,000-ask inbox: its newest agent (first in the list) asks with 4 KB of Markdown in
        // `detail`, after a first ask without it (so the first screen shows the same card as at 1,000).
        if (before > 0 && more > 1) {
          await addAgents(more - 1, noDetail)
          await addAgents(1, (n, k) => (k === 0 ? undefined : markdownDetail(n)))
        } else await addAgents(more, noDetail)
      }
      const asks = inboxAgents.length * perAgent
      sizes.push(
        await measureInbox(browser, pageLink, asks, opts.inboxLoads, opts.navSteps, before > 0, opts.profileDir),
      )
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
      inboxes: sizes,
    }
  } finally {
    await browser.close()
  }
}

const rafTwice = (page: Page): Promise<unknown> =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))

/** Presses `]` `steps` times, each after the previous card is committed; the keydown → commit times. */
async function nextAsk(page: Page, steps: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < steps; i++) {
    const from = await page.evaluate((sel) => {
      const view = document.querySelector(sel) as HTMLElement | null
      ;(window as any).__bench.nav = { fromId: view?.dataset.askId, t0: null, result: null }
      return view?.dataset.askId
    }, VIEW_SELECTOR)
    if (from === undefined) break
    await page.keyboard.press(']')
    const r = await page
      .waitForFunction(() => (window as any).__bench.nav.result, undefined, { timeout: 5_000 })
      .then((h) => h.jsonValue() as Promise<{ ms: number }>)
      .catch(() => null)
    if (r) times.push(r.ms)
    await rafTwice(page)
  }
  return times
}

async function measureInbox(
  browser: Browser,
  pageLink: () => Promise<string>,
  asks: number,
  loads: number,
  navSteps: number,
  withMarkdown: boolean,
  profileDir: string | undefined,
): Promise<InboxResult> {
  const toFirstScreen: number[] = []
  const toFrame: number[] = []
  const navigationTo: number[] = []
  const rows: number[] = []
  const allIn: number[] = []
  const longest: number[] = []
  let last: {
    nextAskMs?: Summary
    nextAskMarkdownMs?: Summary
    jsHeapBytes?: number
    snapshot?: { bytes: number; frames: number }
  } = {}
  for (let l = 0; l < loads; l++) {
    const p = await newProbedPage(browser, asks)
    // With --cpu-prof=DIR, the first load of each inbox is profiled in the page (Chromium's V8 profiler).
    const cdp = await p.context().newCDPSession(p)
    const profile = profileDir !== undefined && l === 0
    if (profile) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
      await cdp.send('Profiler.start')
    }
    await p.goto(await pageLink())
    const r = await withTimeout(
      p
        .waitForFunction(() => (window as any).__bench.inbox.result, undefined, { timeout: 60_000 })
        .then((h) => h.jsonValue()),
      65_000,
      `the ${asks}-ask inbox's first screen`,
    ).catch(async (error: Error) => {
      const n = await p.evaluate((sel) => document.querySelectorAll(sel).length, ROW_SELECTOR).catch(() => -1)
      console.error(`  inbox load ${l}: ${error.message} (rows matching ${ROW_SELECTOR}: ${n})`)
      return null
    })
    if (profile && profileDir) {
      const { profile: cpu } = await cdp.send('Profiler.stop')
      mkdirSync(profileDir, { recursive: true })
      writeFileSync(join(profileDir, `renderer-inbox-${asks}-${Date.now()}.cpuprofile`), JSON.stringify(cpu))
    }
    if (r) {
      rows.push(r.rows)
      toFirstScreen.push(r.domAt - r.snapshotAt)
      toFrame.push(r.frameAt - r.snapshotAt)
      navigationTo.push(r.domAt)
      // Every ask in: the top bar's count (the rest of a bounded snapshot arrives as ask/added).
      const done = await p
        .waitForFunction(() => (window as any).__bench.inbox.allInAt !== undefined, undefined, { timeout: 60_000 })
        .then(() =>
          p.evaluate(() => {
            const b = (window as any).__bench
            const tasks = (b.longTasks as { start: number; duration: number }[]).filter(
              (t) => t.start <= b.inbox.allInAt,
            )
            return { allIn: b.inbox.allInAt - b.snapshotAt, longest: Math.max(0, ...tasks.map((t) => t.duration)) }
          }),
        )
        .catch(() => null)
      if (done) {
        allIn.push(done.allIn)
        longest.push(done.longest)
      }
    }
    if (l === loads - 1 && r) {
      // Wait until every ask is in (the pending count), then measure the heap and `]`.
      await p
        .waitForFunction(
          (n) => document.querySelector('[data-testid="pending-count"]')?.textContent?.startsWith(`${n} `),
          asks,
          { timeout: 60_000 },
        )
        .catch(() => console.error(`  the ${asks}-ask inbox never showed ${asks} pending`))
      const wire = await p.evaluate(() => (window as any).__bench.wire)
      await cdp.send('HeapProfiler.collectGarbage')
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
      // Start from the top of the list: the card shown at first screen stays selected while the rest of a
      // bounded snapshot arrives and sorts above it, so select the first row (scrolled to, then clicked).
      await p.evaluate(() => document.querySelector('[data-testid="ask-list"]')?.scrollTo(0, 0))
      await rafTwice(p)
      await p.click('[data-testid="ask-list"] li[aria-posinset="1"] [data-testid="ask-item"]')
      await rafTwice(p)
      let markdownSteps: number[] = []
      if (withMarkdown) {
        // The first agent's asks after its first carry 4 KB of Markdown: `]` from the first ask.
        markdownSteps = await nextAsk(p, navSteps)
        // The figure is only what it says if those cards did render their Markdown detail.
        const rendered = await p.evaluate(
          () => document.querySelector('[data-testid="question-detail"] [data-testid="md-blocks"]') !== null,
        )
        if (!rendered) {
          console.error(`  the ${asks}-ask inbox's Markdown steps showed no rendered detail; nextAskMarkdownMs dropped`)
          markdownSteps = []
        }
        // Back past the first ask, wrapping to the last (the oldest agent's), then `navSteps` further back.
        for (let i = 0; i < 2 * navSteps + 1; i++) await p.keyboard.press('[')
        await rafTwice(p)
      }
      const plainSteps = await nextAsk(p, navSteps)
      last = {
        nextAskMs: summarize(plainSteps),
        ...(withMarkdown ? { nextAskMarkdownMs: summarize(markdownSteps) } : {}),
        jsHeapBytes: heap.usedSize,
        ...(wire ? { snapshot: wire } : {}),
      }
    }
    await p.close()
  }
  return {
    asks,
    loads,
    snapshotToFirstScreenMs: summarize(toFirstScreen),
    snapshotToFrameMs: summarize(toFrame),
    navigationToFirstScreenMs: summarize(navigationTo),
    rowsAtFirstScreen: rows,
    snapshotToAllAsksMs: summarize(allIn),
    longestTaskMs: summarize(longest),
    ...last,
  }
}
