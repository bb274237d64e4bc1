// Answering through the real companion: the agent's promise resolves with exactly what was picked.
import { askView, expect, pendingCount, test, waitArmed } from './support/fixtures'

const PKG = {
  id: 'pkg',
  header: 'Package manager',
  question: 'Which package manager should this project use?',
  options: [
    { label: 'pnpm (Recommended)', description: 'Fast, strict, disk-efficient.' },
    { label: 'npm', description: 'Ships with Node.' },
    { label: 'yarn' },
  ],
}
const TARGETS = {
  id: 'targets',
  header: 'Scope',
  question: 'What should the release update?',
  multi_select: true,
  options: [{ label: 'tests' }, { label: 'docs' }, { label: 'changelog' }],
}

test('answers a single-select question', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const answer = agent('claude-code').ask([PKG])
  await expect(askView(page).getByText(PKG.question)).toBeVisible()
  await expect(askView(page).getByTestId('recommended-badge')).toHaveText('Recommended')
  await waitArmed(page)
  await page.getByRole('radio', { name: /pnpm/ }).check()
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'pkg', selected: ['pnpm (Recommended)'] }] })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test('answers a multi-select with custom text, and a skip, in one ask', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const answer = agent('codex').ask([TARGETS, { id: 'notes', question: 'Anything to add?' }, PKG])
  const questions = page.getByTestId('question')
  await expect(questions).toHaveCount(3)
  await waitArmed(page)
  await questions.nth(0).getByRole('checkbox', { name: 'docs' }).check()
  await questions.nth(0).getByRole('checkbox', { name: 'tests' }).check()
  await questions.nth(0).getByRole('textbox').fill('release notes')
  await questions.nth(1).getByRole('button', { name: 'Skip this question' }).click()
  await questions.nth(2).getByRole('button', { name: 'Skip this question' }).click()
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(JSON.stringify(await answer)).toBe(
    '{"answers":[{"id":"targets","selected":["tests","docs"],"custom":"release notes"},{"id":"notes","selected":[]},{"id":"pkg","selected":[]}]}',
  )
})

test('a dismissal cancels the ask (ASK_CANCELLED)', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const answer = agent('gemini-cli').ask([PKG])
  await waitArmed(page)
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(page.getByTestId('dismiss-confirm')).toBeVisible()
  await page.getByRole('button', { name: 'Yes, dismiss' }).click()
  expect(await answer).toEqual({ error: { code: 'ASK_CANCELLED', message: expect.any(String) } })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test('keyboard only: digits, Tab, Enter, Esc and ] between asks', async ({ page, agent, openInbox, companion }) => {
  await openInbox(page)
  const bot = agent('cursor')
  const first = bot.ask([PKG, TARGETS])
  await pendingCount(companion, 1)
  const second = bot.ask([{ id: 'go', question: 'Deploy now?', options: [{ label: 'yes' }, { label: 'no' }] }])
  await pendingCount(companion, 2)
  await expect(page.getByTestId('ask-item')).toHaveCount(2)

  // The first ask has focus on its first option: 2 picks npm.
  await expect(page.getByRole('radio', { name: 'pnpm Recommended' })).toBeFocused()
  await waitArmed(page)
  await page.keyboard.press('2')
  await expect(page.getByRole('radio', { name: 'npm', exact: true })).toBeChecked()
  // Tab to the next question's options (past the text field and skip button), then pick 1 and 3.
  const targets = page.getByTestId('question').nth(1)
  while (
    !(await targets
      .getByRole('checkbox')
      .first()
      .evaluate((el) => el === document.activeElement))
  ) {
    await page.keyboard.press('Tab')
  }
  await page.keyboard.press('1')
  await page.keyboard.press('3')
  // ] shows the other ask; Esc asks to confirm and Esc takes it back; [ returns.
  await page.keyboard.press(']')
  await expect(askView(page).getByText('Deploy now?')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('dismiss-confirm')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('dismiss-confirm')).toHaveCount(0)
  await page.keyboard.press('[')
  await expect(targets.getByRole('checkbox', { name: 'changelog' })).toBeChecked()
  await waitArmed(page) // [ shows the ask again without a click on its row: it arms first
  await page.keyboard.press('Enter')
  expect(await first).toEqual({
    answers: [
      { id: 'pkg', selected: ['npm'] },
      { id: 'targets', selected: ['tests', 'changelog'] },
    ],
  })
  // The remaining ask takes focus: 1, Enter.
  await expect(askView(page).getByText('Deploy now?')).toBeVisible()
  await expect(page.getByRole('radio', { name: 'yes' })).toBeFocused()
  await waitArmed(page)
  await page.keyboard.press('1')
  await page.keyboard.press('Enter')
  expect(await second).toEqual({ answers: [{ id: 'go', selected: ['yes'] }] })
})
