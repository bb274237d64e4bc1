// Screenshots of the main states. Every run takes them (into test-results/screenshots); with
// UPDATE_SCREENSHOTS=1 they replace the committed PNGs in docs/screenshots.
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ROOT } from './support/build'
import { expect, pendingCount, test, type TestAgent } from './support/fixtures'

const SHOTS_DIR =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? join(ROOT, 'docs', 'screenshots')
    : join(ROOT, 'test-results', 'screenshots')
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) })

test.use({ viewport: { width: 1280, height: 800 } })

async function fillInbox(
  agent: (name: string, info?: { cwd?: string; title?: string }) => TestAgent,
  companion: Parameters<typeof pendingCount>[0],
) {
  const claude = agent('claude-code', { cwd: '/home/ada/src/shop-api', title: 'Migrate the orders service' })
  const codex = agent('codex', { cwd: '/home/ada/src/docs-site' })
  const gemini = agent('gemini-cli', { cwd: '/home/ada/src/infra', title: 'Nightly cleanup' })
  void gemini.ask([
    {
      id: 'prune',
      header: 'Cleanup',
      question: 'Delete the 14 stale preview environments?',
      options: [{ label: 'Delete all (Recommended)' }, { label: 'Keep the last 3' }],
    },
  ])
  await pendingCount(companion, 1)
  void codex.ask(
    [
      {
        id: 'targets',
        header: 'Release scope',
        question: 'The docs build is green. What should this release update?',
        multi_select: true,
        options: [
          { label: 'API reference (Recommended)', description: 'Regenerate from the OpenAPI spec.' },
          { label: 'Tutorials', description: 'Refresh screenshots and code samples.' },
          { label: 'Changelog', description: 'Summarize the merged pull requests.' },
          { label: 'Landing page' },
        ],
      },
    ],
    { title: 'Docs release 4.2' },
  )
  await pendingCount(companion, 2)
  void claude.ask([
    {
      id: 'tests',
      question: 'Run the slow integration tests before pushing?',
      options: [{ label: 'yes' }, { label: 'no' }],
    },
  ])
  await pendingCount(companion, 3)
  void claude.ask(
    [
      {
        id: 'db',
        header: 'Database',
        question: 'The orders table has 40M rows. Which migration strategy should I use?',
        options: [
          {
            label: 'Online copy with triggers (Recommended)',
            description: 'No downtime; takes about two hours and doubles disk use meanwhile.',
          },
          { label: 'Maintenance window', description: 'Simple and fast, but the shop is read-only for ~15 minutes.' },
          { label: 'Postpone', description: 'Keep the current schema until the next sprint.' },
        ],
      },
      {
        id: 'notify',
        header: 'Notify',
        question: 'Who should hear about it?',
        multi_select: true,
        options: [{ label: 'On-call' }, { label: 'Support team' }, { label: 'Nobody' }],
      },
    ],
    { title: 'Orders table migration' },
  )
  await pendingCount(companion, 4)
}

test('inbox, light and dark; a multi-select question', async ({ page, agent, openInbox, companion }) => {
  await fillInbox(agent, companion)
  await page.emulateMedia({ colorScheme: 'light' })
  await openInbox(page)
  await expect(page.getByTestId('ask-item')).toHaveCount(4)
  await page.locator('[data-testid="ask-item"]', { hasText: 'Orders table migration' }).click()
  await page.getByRole('radio', { name: /Online copy/ }).check()
  await shot(page, 'inbox-light')

  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 20, 24)')
  await shot(page, 'inbox-dark')

  await page.emulateMedia({ colorScheme: 'light' })
  await page.locator('[data-testid="ask-item"]', { hasText: 'Docs release 4.2' }).click()
  await page.getByRole('checkbox', { name: /API reference/ }).check()
  await page.getByRole('checkbox', { name: 'Changelog' }).check()
  await page.getByRole('textbox').fill('Also mention the new CLI flags.')
  await shot(page, 'multi-select')
})

test('history and the Chinese UI', async ({ page, agent, openInbox, companion }) => {
  await fillInbox(agent, companion)
  await openInbox(page)
  // Settle a few asks three ways to fill the history.
  await page.locator('[data-testid="ask-item"]', { hasText: 'Docs release 4.2' }).click()
  await page.getByRole('checkbox', { name: 'Tutorials' }).check()
  await page.getByRole('textbox').fill('Keep the old screenshots for v3.')
  await page.getByRole('button', { name: 'Send answer' }).click()
  await expect(page.getByTestId('ask-item')).toHaveCount(3)
  await page.locator('[data-testid="ask-item"]', { hasText: 'Cleanup' }).click()
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await page.getByRole('button', { name: 'Yes, dismiss' }).click()
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
  await page.getByRole('button', { name: 'History' }).click()
  await expect(page.getByTestId('history-entry')).toHaveCount(2)
  await shot(page, 'history')

  await page.getByRole('button', { name: 'Inbox' }).click()
  const zh = agent('通义灵码', { cwd: '/home/ada/src/商城', title: '重构支付模块' })
  void zh.ask([
    {
      id: 'pay',
      header: '支付',
      question: '支付回调需要重试机制。应该采用哪种方案？',
      options: [
        { label: '消息队列（推荐）', description: '可靠，可追踪，需要部署 RabbitMQ。' },
        { label: '定时任务', description: '实现简单，但延迟较高。' },
        { label: '暂不处理' },
      ],
    },
  ])
  await pendingCount(companion, 3)
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh')
  await page.locator('[data-testid="ask-item"]', { hasText: '支付' }).click()
  await expect(page.getByTestId('pending-count')).toHaveText('3 个待回答')
  await shot(page, 'chinese')
})
