// Several windows, agents that give up, and reloads: state lives in the companion.
import { askView, expect, pendingCount, test, waitArmed } from './support/fixtures'

const DEPLOY = { id: 'go', question: 'Deploy to production now?', options: [{ label: 'yes' }, { label: 'no' }] }

test('two windows see the same settlement', async ({ page, context, agent, openInbox }) => {
  const other = await openInbox(await context.newPage())
  await openInbox(page)
  const bot = agent('claude-code')
  const answer = bot.ask([DEPLOY])
  const draftless = bot.ask([{ id: 'later', question: 'Anything else later?' }])
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
  await expect(other.getByTestId('ask-item')).toHaveCount(2)
  // The other window has started typing on the first ask: it keeps that draft with a notice.
  await other.getByTestId('question').getByRole('textbox').fill('maybe after lunch')
  await expect(askView(page).getByText(DEPLOY.question)).toBeVisible()
  await waitArmed(page)
  await page.getByRole('radio', { name: 'yes' }).check()
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['yes'] }] })

  await expect(page.getByTestId('ask-item')).toHaveCount(1)
  const notice = other.getByTestId('settled-notice')
  await expect(notice).toContainText('Answered in another window.')
  await expect(other.getByTestId('question').getByRole('textbox')).toHaveValue('maybe after lunch')
  await expect(other.getByTestId('pending-count')).toHaveText('1 pending')
  await other.getByRole('button', { name: 'Close' }).click()
  await expect(other.getByTestId('ask-item')).toHaveCount(1)

  // A dismissal in the other window empties both (Close showed the next card, which arms first).
  await expect(askView(other).getByText('Anything else later?')).toBeVisible()
  await waitArmed(other)
  await other.getByRole('button', { name: 'Dismiss' }).click()
  await other.getByRole('button', { name: 'Yes, dismiss' }).click()
  expect(await draftless).toMatchObject({ error: { code: 'ASK_CANCELLED' } })
  await expect(other.getByTestId('empty-inbox')).toBeVisible()
  // This window's card (shown after its send, focus in its field) says so, and stays while the person
  // is on it; it leaves once they step off it (a click on the window's title takes the focus out).
  await expect(page.getByTestId('settled-notice')).toContainText('Dismissed in another window.')
  await expect(askView(page).getByRole('textbox')).toBeFocused()
  await expect(askView(page)).toBeVisible()
  await page.getByRole('heading', { name: 'Ask User Companion' }).click()
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test('an agent abort removes its card', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const controller = new AbortController()
  const answer = agent('scripts/deploy.sh').ask([DEPLOY], { signal: controller.signal })
  await expect(askView(page).getByText(DEPLOY.question)).toBeVisible()
  controller.abort()
  expect(await answer).toMatchObject({ error: { code: 'ASK_ABORTED' } })
  await expect(page.getByTestId('settled-notice')).toContainText('The agent withdrew this question.')
  await expect(page.getByTestId('ask-view')).toHaveCount(0)
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test('an agent that goes away takes its asks along, other agents stay', async ({
  page,
  agent,
  openInbox,
  companion,
}) => {
  await openInbox(page)
  const leaving = agent('aider')
  void leaving.ask([DEPLOY])
  void agent('codex').ask([{ id: 'x', question: 'Stay?' }])
  await pendingCount(companion, 2)
  await expect(page.getByTestId('ask-item')).toHaveCount(2)
  await leaving.client.close()
  await expect(page.getByTestId('ask-item')).toHaveCount(1)
  await expect(page.getByTestId('agent-group')).toContainText('codex')
})

test('a reload signs the page out (its credential lived in memory only); a new link brings back drafts and pending asks', async ({
  page,
  agent,
  companion,
  openInbox,
}) => {
  await openInbox(page)
  const answer = agent('codex').ask([
    { id: 'targets', question: 'Which targets?', multi_select: true, options: [{ label: 'tests' }, { label: 'docs' }] },
    { id: 'notes', question: 'Notes for the changelog?' },
  ])
  await waitArmed(page)
  await page.getByRole('checkbox', { name: 'docs' }).check()
  await page.getByTestId('question').nth(1).getByRole('textbox').fill('mention the new CLI')
  expect(page.url()).not.toContain('#code=')
  await page.reload()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'signed-out')
  await expect(page.getByTestId('sign-in')).toContainText('ask-user open')
  await expect(page.getByTestId('ask-item')).toHaveCount(0)
  await page.goto(companion.companion.windowLink())
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  await expect(page.getByRole('checkbox', { name: 'docs' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'tests' })).not.toBeChecked()
  await expect(page.getByTestId('question').nth(1).getByRole('textbox')).toHaveValue('mention the new CLI')
  await waitArmed(page) // the reloaded window's first card arms again
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({
    answers: [
      { id: 'targets', selected: ['docs'] },
      { id: 'notes', selected: [], custom: 'mention the new CLI' },
    ],
  })
  // The agent can have its answer a moment before the window handles `accepted` (which drops the draft).
  await expect
    .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('ask-user.draft.'))))
    .toEqual([])
})
