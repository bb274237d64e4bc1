// A busy inbox: 200 pending asks from 20 agents stays usable and every ask answerable.
import { expect, pendingCount, test, waitArmed } from './support/fixtures'

test('200 pending asks from 20 agents, 50 options each, still answerable', async ({
  page,
  agent,
  openInbox,
  companion,
}) => {
  test.setTimeout(90_000)
  const options = Array.from({ length: 50 }, (_, i) => ({
    label: `option ${i + 1}`,
    description: `What option ${i + 1} means.`,
  }))
  const answers: Promise<unknown>[] = []
  for (let a = 0; a < 20; a++) {
    const bot = agent(`agent-${String(a).padStart(2, '0')}`)
    for (let q = 0; q < 10; q++) {
      answers.push(
        bot.ask([{ id: 'q', header: `Task ${q}`, question: `Agent ${a}, question ${q}: which option?`, options }]),
      )
    }
  }
  await pendingCount(companion, 200)
  await openInbox(page)
  await expect(page.getByTestId('pending-count')).toHaveText('200 pending')
  // The list is windowed (inbox-window.spec.ts): one list over all 200, a screen's worth of rows rendered.
  const setSize = page.locator('[data-testid="ask-list"] li[aria-posinset]').first()
  await expect(setSize).toHaveAttribute('aria-setsize', '200')

  // Pick an ask deep in the list (scrolled to the end), and the 50th option (scrolled into view).
  await page.getByTestId('ask-list').evaluate((list) => (list.scrollTop = list.scrollHeight))
  await expect(page.locator('[data-testid="ask-list"] li[aria-posinset="200"]')).toBeInViewport()
  await page.locator('[data-testid="ask-item"]', { hasText: 'Task 7' }).last().click()
  const view = page.getByTestId('ask-view')
  const shownQuestion = (await view.locator('p.text').textContent()) ?? ''
  await view.getByRole('radio', { name: 'option 50' }).check()
  await view.getByRole('button', { name: 'Send answer' }).click()
  await expect(setSize).toHaveAttribute('aria-setsize', '199')
  await expect(page.getByTestId('pending-count')).toHaveText('199 pending')
  const [, agentIndex, questionIndex] = /Agent (\d+), question (\d+)/.exec(shownQuestion)!
  expect(await answers[Number(agentIndex) * 10 + Number(questionIndex)]).toEqual({
    answers: [{ id: 'q', selected: ['option 50'] }],
  })

  // Keyboard through a few more: the next ask takes focus; 3 then Enter answers it.
  for (let i = 0; i < 3; i++) {
    await expect(page.getByTestId('ask-view').getByRole('radio').first()).toBeFocused()
    await waitArmed(page) // shown by the send, not by a click on its row: it arms first
    await page.keyboard.press('3')
    await page.keyboard.press('Enter')
    await expect(setSize).toHaveAttribute('aria-setsize', String(198 - i))
  }
})
