// A secret question in the served page (which connects with secrets=masked): a masked input, shown
// only while "Hold to show" is pressed, no skip, never in sessionStorage, and history keeps no value.
import { askView, expect, test, waitArmed } from './support/fixtures'

const SECRET = 'typed-in-the-window-42'

test('a secret question is masked, revealed only while held, never stored, and sent only in the answer', async ({
  page,
  agent,
  openInbox,
}) => {
  await openInbox(page)
  const answer = agent('ask-user-askpass').ask([
    { id: 'pw', header: 'Password', question: '[sudo] password for u:', secret: true },
  ])
  const input = askView(page).getByTestId('secret-input')
  await expect(input).toHaveAttribute('type', 'password')
  await expect(askView(page).getByRole('button', { name: 'Skip this question' })).toHaveCount(0)
  await input.fill(SECRET)
  const reveal = askView(page).getByTestId('secret-reveal')
  await reveal.hover()
  await page.mouse.down()
  await expect(input).toHaveAttribute('type', 'text')
  await page.mouse.up()
  await expect(input).toHaveAttribute('type', 'password')
  const stored = await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)))
  expect(stored).not.toContain(SECRET)
  await waitArmed(page)
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'pw', selected: [], custom: SECRET }] })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  await expect(page.locator('body')).not.toContainText(SECRET)
})
