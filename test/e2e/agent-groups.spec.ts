// The list at 30 asks from 5 agents, in Chromium against the real core (newcomer review M6, M7, L6):
// one group per agent, the longest wait first, one agent's asks dismissed together (only those the
// confirmation counted), and notices that clear together and open what they are about.
import type { Locator, Page } from '@playwright/test'
import { expect, test, type TestAgent } from './support/fixtures'

const NAMES = ['Cursor', 'deploy-bot.sh', 'Claude Code', 'Codex', 'Gemini CLI']
const question = (agent: string, n: number) => ({
  id: 'q',
  header: `Step ${n}`,
  question: `${agent}: may I run step ${n}?`,
  options: [{ label: 'Yes' }, { label: 'No' }],
})

const groups = (page: Page): Locator => page.getByTestId('agent-group')
const group = (page: Page, name: string): Locator => groups(page).filter({ has: page.getByRole('heading', { name }) })
const fontSize = (locator: Locator): Promise<number> =>
  locator.evaluate((element) => parseFloat(getComputedStyle(element).fontSize))

test('30 asks from 5 agents: one group each, the longest wait first, one agent dismissed as counted', async ({
  page,
  agent,
  openInbox,
}) => {
  await page.setViewportSize({ width: 1280, height: 2400 })
  await openInbox(page)
  // Claude Code speaks through two connections of one session (a hook call per ask, as a harness runs
  // them): still one agent. Every other agent asks on its own connection each time (one process per ask).
  const agents = new Map<string, TestAgent[]>()
  const connect = (name: string): TestAgent => {
    const list = agents.get(name) ?? []
    const one = agent(name, name === 'Claude Code' ? { cwd: `/tmp/hook-${list.length}`, session: 'c0ffee' } : {})
    agents.set(name, [...list, one])
    return one
  }
  const answers = new Map<string, Promise<unknown>[]>()
  // Round by round, each agent in turn: the first agent has waited longest, the last one asked last.
  for (let round = 1; round <= 6; round++) {
    for (const name of NAMES) {
      const pending = connect(name).ask([question(name, round)])
      answers.set(name, [...(answers.get(name) ?? []), pending])
      // One at a time, so that each ask's arrival order is known.
      await expect(page.getByTestId('ask-item')).toHaveCount((round - 1) * NAMES.length + NAMES.indexOf(name) + 1)
    }
  }
  await expect(page.getByTestId('pending-count')).toHaveText('30 pending')
  await expect(groups(page)).toHaveCount(5)
  await expect(groups(page).getByRole('heading')).toHaveText(NAMES.map((name) => new RegExp(`^${name}\\s*6$`)))

  // Rows say the question, the header chip beside it, oldest first; no "1 question" on each row.
  const cursorRows = page.getByTestId('ask-item').filter({ hasText: 'Cursor:' })
  await expect(cursorRows.getByTestId('ask-text')).toHaveText(
    [1, 2, 3, 4, 5, 6].map((n) => `Cursor: may I run step ${n}?`),
  )
  await expect(cursorRows.first().getByTestId('ask-chip')).toHaveText('Step 1')
  await expect(page.getByTestId('ask-list')).not.toContainText('1 question')
  // The group name reads as a heading over its rows, and does not claim to be verified.
  const heading = group(page, 'Cursor').getByRole('heading')
  expect(await fontSize(heading)).toBeGreaterThan(await fontSize(cursorRows.first().getByTestId('ask-text')))
  await expect(heading).toHaveAttribute('title', 'The agent gives this name itself; it is not verified')

  // Dismiss all of deploy-bot.sh: while the confirmation is open, it asks once more; that ask stays.
  await group(page, 'deploy-bot.sh').getByRole('button', { name: 'Dismiss all 6 pending from deploy-bot.sh' }).click()
  const confirm = page.getByTestId('dismiss-agent-confirm')
  await expect(confirm).toContainText('Dismiss the 6 pending from deploy-bot.sh?')
  await expect(confirm.getByRole('button', { name: 'Keep them' })).toBeFocused()
  void connect('deploy-bot.sh').ask([question('deploy-bot.sh', 7)])
  await expect(page.getByTestId('pending-count')).toHaveText('31 pending')
  await confirm.getByRole('button', { name: 'Dismiss 6' }).click()
  for (const dismissed of answers.get('deploy-bot.sh')!)
    expect(await dismissed).toMatchObject({ error: { code: 'ASK_CANCELLED' } })
  await expect(page.getByTestId('pending-count')).toHaveText('25 pending')
  await expect(group(page, 'deploy-bot.sh').getByRole('heading')).toHaveText(/^deploy-bot\.sh\s*1$/)
  await expect(page.getByTestId('ask-item').filter({ hasText: 'deploy-bot.sh: may I run step 7?' })).toHaveCount(1)
  // The other agents' asks are all still waiting.
  for (const name of NAMES.filter((n) => n !== 'deploy-bot.sh'))
    await expect(group(page, name).getByRole('heading')).toHaveText(new RegExp(`^${name}\\s*6$`))
})

test('notices: relative times, a click opens the agent’s ask (else the history), Clear all', async ({
  page,
  agent,
  openInbox,
}) => {
  await openInbox(page)
  const codex = agent('Codex')
  const gemini = agent('Gemini CLI')
  void gemini.ask([question('Gemini CLI', 1)])
  await expect(page.getByTestId('ask-item')).toHaveCount(1)
  void codex.ask([question('Codex', 1)])
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
  await codex.client.notify({ kind: 'needs-input', text: 'Codex needs your input' })
  await agent('opencode').client.notify({ kind: 'turn-complete', text: 'opencode finished its turn' })
  const notices = page.getByTestId('notice')
  await expect(notices).toHaveCount(2)
  await expect(notices.locator('time')).toHaveText(['just now', 'just now'])
  // The card on screen is Gemini's (it has waited longest); Codex's notice opens Codex's ask.
  await expect(page.getByTestId('ask-view')).toContainText('Gemini CLI: may I run step 1?')
  await notices.filter({ hasText: 'Codex needs your input' }).getByTestId('notice-open').click()
  await expect(page.getByTestId('ask-view')).toContainText('Codex: may I run step 1?')
  // opencode has nothing pending: its notice opens the history.
  await notices.filter({ hasText: 'opencode finished its turn' }).getByTestId('notice-open').click()
  await expect(page.getByTestId('history-view')).toBeVisible()
  await page.getByRole('button', { name: 'Inbox' }).click()
  await page.getByTestId('notices-clear-all').click()
  await expect(page.getByTestId('notices')).toHaveCount(0)
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
})
