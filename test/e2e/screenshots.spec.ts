// Every window picture the docs embed, taken from the real `ask-user serve` in Chromium: every run takes
// them (into test-results/screenshots); with UPDATE_SCREENSHOTS=1 they replace the committed PNGs in
// docs/screenshots. States are found by data-testid, so that the pictures follow the window as it changes.
// (The tray and the native notifications are drawn by the OS; the docs mark their pictures as illustrations.)
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ROOT } from './support/build'
import { armed, expect, test } from './support/fixtures'
import type { ScreenshotName } from './support/screenshot-names'
import { startServe, type Served } from './support/serve'

const SHOTS_DIR =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? join(ROOT, 'docs', 'screenshots')
    : join(ROOT, 'test-results', 'screenshots')
const shot = (page: Page, name: ScreenshotName) => page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) })

test.use({ viewport: { width: 1280, height: 800 } })

let served: Served
test.beforeEach(async () => {
  served = await startServe()
})
test.afterEach(async () => served.cleanup())

const items = (page: Page) => page.getByTestId('ask-item')
const row = (page: Page, text: string) => items(page).filter({ hasText: text })

/** Opens the window through `serve`'s one-time link and waits until it is connected. */
async function open(page: Page): Promise<void> {
  await page.goto(served.link)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
}

/** Four asks from three agents, as in the docs' inbox; resolves once the list shows them all. */
async function fillInbox(page: Page): Promise<void> {
  const claude = served.agent('claude-code', { cwd: '/home/ada/src/shop-api', title: 'Migrate the orders service' })
  const codex = served.agent('codex', { cwd: '/home/ada/src/docs-site' })
  const gemini = served.agent('gemini-cli', { cwd: '/home/ada/src/infra', title: 'Nightly cleanup' })
  void gemini.ask([
    {
      id: 'prune',
      header: 'Cleanup',
      question: 'Delete the 14 stale preview environments?',
      options: [{ label: 'Delete all (Recommended)' }, { label: 'Keep the last 3' }],
    },
  ])
  await expect(items(page)).toHaveCount(1)
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
  await expect(items(page)).toHaveCount(2)
  void claude.ask([
    {
      id: 'tests',
      question: 'Run the slow integration tests before pushing?',
      options: [{ label: 'yes' }, { label: 'no' }],
    },
  ])
  await expect(items(page)).toHaveCount(3)
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
  await expect(items(page)).toHaveCount(4)
}

test('inbox, light and dark; a multi-select question', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await open(page)
  await fillInbox(page)
  await row(page, 'Orders table migration').click()
  await page.getByTestId('option').filter({ hasText: 'Online copy' }).first().click()
  await shot(page, 'inbox-light')

  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 20, 24)')
  await shot(page, 'inbox-dark')

  await page.emulateMedia({ colorScheme: 'light' })
  await row(page, 'What should this release update?').click()
  await page.getByTestId('option').filter({ hasText: 'API reference' }).click()
  await page.getByTestId('option').filter({ hasText: 'Changelog' }).click()
  await page.getByTestId('ask-view').getByRole('textbox').first().fill('Also mention the new CLI flags.')
  await shot(page, 'multi-select')
})

test('history with answers, a dismissal and decisions; the Chinese UI', async ({ page }) => {
  await open(page)
  await fillInbox(page)
  // An answer, a dismissal, a denial with its reason and an approval allowed once fill the history.
  await row(page, 'What should this release update?').click()
  await page.getByTestId('option').filter({ hasText: 'Tutorials' }).click()
  await page.getByTestId('ask-view').getByRole('textbox').first().fill('Keep the old screenshots for v3.')
  await page.getByTestId('ask-view').getByRole('button', { name: /^Send/ }).click()
  await expect(items(page)).toHaveCount(3)
  await row(page, 'Cleanup').click()
  await page.getByTestId('ask-view').getByRole('button', { name: 'Dismiss' }).click()
  await page
    .getByTestId('dismiss-confirm')
    .getByRole('button', { name: /dismiss/i })
    .click()
  await expect(items(page)).toHaveCount(2)

  const agent = served.agent('Claude Code', { cwd: '/home/ada/src/shop-api' })
  const denied = agent.approve({
    tool: 'Bash',
    harness: 'claude-code',
    action: { kind: 'command', command: 'rm -rf build/ node_modules/', cwd: '/home/ada/src/shop-api' },
  })
  await expect(items(page)).toHaveCount(3)
  await row(page, 'rm -rf').click()
  const card = await armed(page.getByTestId('approval-card'))
  await card.getByRole('button', { name: /^Deny/ }).click()
  await card.getByRole('textbox').fill('Keep node_modules; clean build/ only.')
  await card.getByRole('button', { name: /^Deny/ }).last().click()
  expect(await denied).toMatchObject({ behavior: 'deny' })
  const allowed = agent.approve({
    tool: 'Bash',
    harness: 'claude-code',
    action: { kind: 'command', command: 'npm test', cwd: '/home/ada/src/shop-api' },
  })
  await expect(items(page)).toHaveCount(3)
  await row(page, 'npm test').click()
  await (await armed(page.getByTestId('approval-card'))).getByRole('button', { name: 'Allow once' }).click()
  expect(await allowed).toMatchObject({ behavior: 'allow' })

  await page.getByRole('button', { name: 'History' }).click()
  await expect(page.getByTestId('history-entry')).toHaveCount(4)
  await shot(page, 'history')

  await page.getByRole('button', { name: 'Inbox' }).click()
  void served.agent('通义灵码', { cwd: '/home/ada/src/商城', title: '重构支付模块' }).ask([
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
  await expect(items(page)).toHaveCount(3)
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh')
  await row(page, '支付').click()
  await expect(page.getByTestId('question').filter({ hasText: '支付回调' })).toBeVisible()
  await shot(page, 'chinese')
})

test('Connect an agent, with this machine’s lines', async ({ page }) => {
  await page.setViewportSize({ width: 1100, height: 900 })
  await open(page)
  await page.getByRole('button', { name: 'Connect an agent' }).click()
  await expect(page.locator('[data-harness="claude-code"]').getByTestId('connect-primary')).toContainText(
    'setup claude-code',
  )
  await shot(page, 'connect')
})

test('an approval on a phone-sized window (390 × 844)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await open(page)
  void served.agent('Claude Code', { cwd: '/home/ada/src/shop-api' }).approve({
    tool: 'Bash',
    harness: 'claude-code',
    action: {
      kind: 'command',
      command: 'git push --force-with-lease origin main',
      cwd: '/home/ada/src/shop-api',
      description: 'Push the rebased branch',
    },
  })
  // A phone folds the list into one line above the card (and builds no rows behind it); the only ask
  // is on screen already.
  await expect(page.getByTestId('list-strip')).toHaveText('1 pending · show the list ▾')
  await armed(page.getByTestId('approval-card'))
  await shot(page, 'approval-narrow')
})

test('a tab that is not signed in, and a window whose companion stopped', async ({ page, browser }) => {
  // A tab opened on the address without its one-time code (or reloaded): it says what to run.
  await page.goto(`${served.origin}/`)
  await expect(page.getByTestId('sign-in')).toBeVisible()
  await shot(page, 'not-signed-in')

  const signedIn = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  try {
    await open(signedIn)
    void served
      .agent('codex', { cwd: '/home/ada/src/docs-site' })
      .ask([{ id: 'go', question: 'Publish the docs now?', options: [{ label: 'Yes' }, { label: 'No' }] }])
    await expect(items(signedIn)).toHaveCount(1)
    await served.stop('SIGKILL') // a companion that crashed: the window keeps what it last knew
    await expect(signedIn.getByTestId('connection-status')).not.toHaveAttribute('data-status', 'open')
    await shot(signedIn, 'disconnected')
  } finally {
    await signedIn.close()
  }
})
