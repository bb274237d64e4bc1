// The card at phone and narrow-panel widths (issue "The first hour", the review's H3): what is approved
// and the buttons that approve it are on screen together, with other asks waiting in the list above.
import type { Locator, Page } from '@playwright/test'
import type { ApprovalRequest } from '../../shared/approval'
import { expect, test } from './support/fixtures'

const longCommand: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: {
    kind: 'command',
    command: 'rm -rf node_modules dist && npm ci && npm run build && npm test -- --coverage --reporter=dot',
    cwd: '/home/ada/src/app',
    description: 'Reinstall and run the whole suite',
  },
  always: { label: 'Always allow `npm ci` in this project' },
}

/** The part of `locator` inside the viewport, as a share of its height (1: wholly visible). */
async function visibleShare(page: Page, locator: Locator): Promise<number> {
  const box = await locator.boundingBox()
  const viewport = page.viewportSize()
  if (!box || !viewport) return 0
  const top = Math.max(box.y, 0)
  const bottom = Math.min(box.y + box.height, viewport.height)
  return Math.max(0, bottom - top) / box.height
}

for (const size of [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
]) {
  test(`${size.width} × ${size.height}: the command and Allow once are on screen together, no bar over the command`, async ({
    page,
    agent,
    openInbox,
  }) => {
    await page.setViewportSize(size)
    await openInbox(page)
    // Other asks wait too, so the list sits above the card, as in the review's screenshot.
    const others = agent('Codex')
    for (const n of [1, 2, 3, 4]) {
      void others.ask([{ id: `q${n}`, question: `Question ${n}?`, options: [{ label: 'yes' }, { label: 'no' }] }])
    }
    const strip = page.getByTestId('list-strip')
    await expect(strip).toHaveText('4 pending · show the list ▾')
    void agent('Claude Code')
      .client.requestApproval(longCommand)
      .catch(() => undefined)
    // The list folds into one line above the card, and a folded list is not built at this width (the
    // first screen renders the card alone); opening it and picking a row folds it again.
    await expect(strip).toHaveText('5 pending · show the list ▾')
    await expect(page.getByTestId('ask-list')).toBeHidden()
    await expect(page.getByTestId('ask-item')).toHaveCount(0)
    await strip.click()
    await expect(page.getByTestId('ask-item')).toHaveCount(5)
    await page.getByTestId('ask-item').filter({ hasText: 'Bash' }).click()
    await expect(page.getByTestId('ask-list')).toBeHidden()
    const card = page.getByTestId('approval-card')
    const command = card.getByTestId('approval-code')
    const allow = card.getByRole('button', { name: 'Allow once' })
    await expect(command).toBeVisible()
    await command.scrollIntoViewIfNeeded()
    expect(await visibleShare(page, command)).toBe(1)
    expect(await visibleShare(page, allow)).toBe(1)
    // Nothing of the action bar lies over the command.
    const commandBox = (await command.boundingBox())!
    for (const button of await card.getByRole('button').all()) {
      const box = await button.boundingBox()
      if (!box) continue
      const overlaps =
        box.y < commandBox.y + commandBox.height &&
        box.y + box.height > commandBox.y &&
        box.x < commandBox.x + commandBox.width &&
        box.x + box.width > commandBox.x
      expect(overlaps, `a button lies over the command: ${await button.textContent()}`).toBe(false)
    }
    // Full-width buttons, the approving one first and Dismiss last.
    const dismiss = card.getByRole('button', { name: 'Dismiss' })
    const allowBox = (await allow.boundingBox())!
    const dismissBox = (await dismiss.boundingBox())!
    expect(allowBox.y).toBeLessThan(dismissBox.y)
    expect(allowBox.width).toBeGreaterThan(size.width * 0.6)
  })
}

test('1280 × 800: a long Markdown detail reads in full in the page, not in a nested scroll box', async ({
  page,
  agent,
  openInbox,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openInbox(page)
  const plan = Array.from({ length: 40 }, (_, n) => `- step ${n + 1}: migrate table ${n + 1}`).join('\n')
  void agent('Claude Code').ask([
    {
      id: 'go',
      question: 'Run this migration?',
      detail: `${plan}\n\n**Risk**: last line`,
      options: [{ label: 'yes' }, { label: 'no' }],
    },
  ])
  const detail = page.getByTestId('question-detail')
  await expect(detail).toContainText('Risk')
  const sizes = await detail.evaluate((element) => ({ scroll: element.scrollHeight, client: element.clientHeight }))
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.client)
  await detail.getByText('last line').scrollIntoViewIfNeeded()
  await expect(detail.getByText('last line')).toBeInViewport()
})
