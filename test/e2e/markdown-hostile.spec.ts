// Hostile agent Markdown through `ask-user serve`'s page in Chromium: the project's own corpus and the
// public payload lists (../shared/fixtures/markdown-xss/, when present) go into question text,
// `detail` and option descriptions, and into the label too. Nothing may run (no dialog, no sentinel),
// fetch (no request after the page loaded, no CSP violation), or navigate, and every answer returns
// the literal label.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ROOT } from './support/build'
import { expect, test, waitArmed, type TestAgent } from './support/fixtures'
import { HOSTILE_MARKDOWN } from './support/hostile-markdown'

const PUBLIC_LISTS = join(ROOT, '..', 'shared', 'fixtures', 'markdown-xss')
/** The companion's cap is 50 questions per ask: one ask, one page render, per batch. */
const BATCH = 50
/** Under the 20,000-character text cap, with room to spare. */
const CHUNK = 4000

/** HTTPLeaks' one big page, cut at blank lines (and long parts at the chunk size) into chunks under the text cap. */
function chunks(text: string): string[] {
  const out: string[] = []
  let current = ''
  const parts = text
    .split(/\n\s*\n/)
    .flatMap((part) =>
      Array.from({ length: Math.ceil(part.length / CHUNK) }, (_, i) => part.slice(i * CHUNK, (i + 1) * CHUNK)),
    )
  for (const part of parts) {
    if (current.length + part.length > CHUNK && current !== '') {
      out.push(current)
      current = ''
    }
    current += `${part}\n\n`
  }
  if (current.trim() !== '') out.push(current)
  return out
}

/** The public lists as payloads, or the reason they are not here. */
function publicPayloads(): { payloads: string[] } | { missing: string } {
  if (!existsSync(PUBLIC_LISTS))
    return {
      missing:
        `${PUBLIC_LISTS} does not exist: the public payload lists may not be copied into the repository, so a ` +
        "fresh clone skips this one test (expected); the project's own hostile corpus above always runs",
    }
  const json = (name: string): unknown[] => {
    const parsed: unknown = JSON.parse(readFileSync(join(PUBLIC_LISTS, name), 'utf8'))
    return Array.isArray(parsed) ? parsed : []
  }
  const field = (entry: unknown, key: string): string[] => {
    if (typeof entry !== 'object' || entry === null) return []
    const value: unknown = Object.entries(entry).find(([name]) => name === key)?.[1]
    return typeof value === 'string' ? [value] : []
  }
  const dompurify = json('dompurify-payloads.json').flatMap((entry) => field(entry, 'payload'))
  const markdownIt = json('markdown-it-xss.json').flatMap((entry) => field(entry, 'markdown'))
  const httpLeaks = chunks(readFileSync(join(PUBLIC_LISTS, 'httpleaks.html'), 'utf8'))
  // Every list read in full (their README counts 223 and 13 entries).
  expect([dompurify.length, markdownIt.length, httpLeaks.length > 0]).toEqual([223, 13, true])
  return { payloads: [...dompurify, ...markdownIt, ...httpLeaks] }
}

/** Watches a page for anything agent text must never cause. */
async function watch(page: Page) {
  const seen = { dialogs: [] as string[], requests: [] as string[], navigations: [] as string[], popups: 0 }
  await page.addInitScript(() => {
    const violations: string[] = []
    Object.defineProperty(window, '__cspViolations', { value: violations })
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.context().on('page', () => void (seen.popups += 1))
  let loaded = false
  page.on('request', (request) => {
    if (loaded) seen.requests.push(request.url())
  })
  page.on('framenavigated', (frame) => {
    if (loaded) seen.navigations.push(frame.url())
  })
  return {
    seen,
    /** From now on every request and navigation counts. */
    start: () => void (loaded = true),
  }
}

/** Picks option 1 (the hostile label) of every question on the card, once it acts, then sends. */
async function answerAll(page: Page): Promise<void> {
  await waitArmed(page)
  await page.evaluate(() => {
    for (const card of document.querySelectorAll('[data-testid=question]'))
      card.querySelector<HTMLInputElement>('input[type=radio]')?.click()
  })
  await page.getByRole('button', { name: 'Send answer' }).click()
}

async function runBatches(
  page: Page,
  agent: TestAgent,
  payloads: string[],
  watcher: Awaited<ReturnType<typeof watch>>,
): Promise<void> {
  for (let start = 0; start < payloads.length; start += BATCH) {
    const batch = payloads.slice(start, start + BATCH)
    const questions = batch.map((payload, i) => ({
      id: `p${start + i}`,
      question: payload,
      detail: payload,
      options: [{ label: payload, description: payload }, { label: 'plain' }],
    }))
    const answer = agent.ask(questions)
    await expect(page.getByTestId('question')).toHaveCount(batch.length)
    // Nothing outside the allow-list made it into the DOM: no element that loads, runs or navigates.
    const forbidden =
      'img, script, iframe, object, embed, svg, math, video, audio, form, link, meta, base, style, a[href]'
    expect(
      await page
        .locator(`[data-testid=question] :is(${forbidden}), [data-testid=ask-view] h2 :is(${forbidden})`)
        .evaluateAll((found) => found.map((element) => element.outerHTML.slice(0, 120))),
    ).toEqual([])
    await answerAll(page)
    expect(await answer).toEqual({ answers: batch.map((payload, i) => ({ id: `p${start + i}`, selected: [payload] })) })
    await expect(page.getByTestId('question')).toHaveCount(0)
  }
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined()
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([])
  expect(watcher.seen).toEqual({ dialogs: [], requests: [], navigations: [], popups: 0 })
}

test("the project's hostile corpus: nothing runs, loads or navigates; labels come back literally", async ({
  page,
  agent,
  openInbox,
}) => {
  const watcher = await watch(page)
  await openInbox(page)
  watcher.start()
  await runBatches(page, agent('hostile'), Object.values(HOSTILE_MARKDOWN).flat(), watcher)
})

test('the public payload lists (DOMPurify, markdown-it, HTTPLeaks)', async ({ page, agent, openInbox }) => {
  test.setTimeout(90_000)
  const lists = publicPayloads()
  if ('missing' in lists) console.log(`skipped: ${lists.missing}`)
  // Skipped, with the reason printed above, only where ../shared/fixtures is absent (a fresh clone).
  test.skip('missing' in lists, 'missing' in lists ? lists.missing : '')
  if ('missing' in lists) return
  const watcher = await watch(page)
  await openInbox(page)
  watcher.start()
  await runBatches(page, agent('public-lists'), lists.payloads, watcher)
})
