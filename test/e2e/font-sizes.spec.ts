// The sizes of the small text a person reads (the newcomer review's L3: option descriptions at 11.9 px,
// folders at 10 px, "Recommended" at 9.8 px, hints at 10.9 px). In Chromium, at the window's own
// 14 px root: the words the person decides by (option descriptions, the question's hint) are at least
// 13 px, and no text of the window is under 0.85rem (11.9 px), in the card, the list and the top bar,
// question and approval alike.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'

/** The floor: 0.85rem at the 14 px root (float rounding aside). */
const FLOOR_PX = 11.85

/** Every visible element with words of its own, with its computed font size in px. */
function textSizes(page: Page): Promise<{ text: string; px: number }[]> {
  return page.evaluate(() => {
    const found: { text: string; px: number }[] = []
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim()
      if (own === '') continue
      const box = element.getBoundingClientRect()
      // Visually hidden words (for screen readers) are 1 px boxes; hidden ones have none.
      if (box.width <= 1 || box.height <= 1) continue
      found.push({ text: own.slice(0, 40), px: parseFloat(getComputedStyle(element).fontSize) })
    }
    return found
  })
}

async function sizeOf(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => parseFloat(getComputedStyle(element).fontSize))
}

test('1280 × 800: descriptions and hints at least 13 px, no text of the window under 11.9 px', async ({
  page,
  agent,
  openInbox,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openInbox(page)
  void agent('Codex', { cwd: '/home/ada/src/app', title: 'Port choice' }).ask([
    {
      id: 'port',
      header: 'Port',
      question: 'Which port should the dev server use?',
      options: [
        { label: '5173 (Recommended)', description: 'Vite default' },
        { label: '3000', description: 'What the proxy expects' },
      ],
    },
    { id: 'name', question: 'Name it?' },
  ])
  void agent('Claude Code', { cwd: '/home/ada/src/api' })
    .client.requestApproval({
      tool: 'Bash',
      harness: 'claude-code',
      action: { kind: 'command', command: 'npm test', cwd: '/home/ada/src/api' },
      always: { label: 'Always allow `npm test`' },
    })
    .catch(() => undefined)
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
  await page.getByTestId('ask-item').filter({ hasText: 'Which port' }).click()
  await expect(page.getByTestId('recommended-badge')).toBeVisible()

  expect(await sizeOf(page, '[data-testid=ask-view] .desc')).toBeGreaterThanOrEqual(13)
  expect(await sizeOf(page, '[data-testid=ask-view] .hint')).toBeGreaterThanOrEqual(13)
  expect(await sizeOf(page, '[data-testid=recommended-badge]')).toBeGreaterThanOrEqual(FLOOR_PX)
  expect(await sizeOf(page, '[data-testid=agent-group] .cwd')).toBeGreaterThanOrEqual(FLOOR_PX)
  expect(await sizeOf(page, 'main .cwd')).toBeGreaterThanOrEqual(FLOOR_PX)
  expect((await textSizes(page)).filter((entry) => entry.px < FLOOR_PX)).toEqual([])

  await page.getByTestId('ask-item').filter({ hasText: 'Bash' }).click()
  await expect(page.getByTestId('approval-card')).toBeVisible()
  expect((await textSizes(page)).filter((entry) => entry.px < FLOOR_PX)).toEqual([])
})
