// Agent text is data: markup in any field shows as text and never runs.
import { askView, expect, test, waitArmed } from './support/fixtures'

const XSS = '<img src=x onerror=window.__pwned=1>'
const SCRIPT = '<script>window.__pwned=2</script>'

test('markup in question text, labels and agent info is rendered literally', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const answer = agent(`evil ${SCRIPT}`, { cwd: `/tmp/${XSS}`, title: XSS }).ask(
    [
      {
        id: 'x',
        header: SCRIPT,
        question: `Pick one ${XSS}`,
        options: [{ label: XSS, description: `<a href="javascript:alert(1)">click</a>` }, { label: 'plain' }],
      },
    ],
    { title: `<b>${XSS}</b>` },
  )
  await expect(askView(page).getByText(`Pick one ${XSS}`)).toBeVisible()
  await expect(askView(page).getByRole('radio', { name: XSS })).toBeVisible()
  await expect(askView(page).getByRole('heading', { name: `<b>${XSS}</b>` })).toBeVisible()
  await expect(page.getByTestId('agent-group')).toContainText(`evil ${SCRIPT}`)
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
  expect(await page.locator('img, script:not([type=module]), a[href^="javascript"]').count()).toBe(0)
  await waitArmed(page)
  await askView(page).getByRole('radio', { name: XSS }).check()
  await page.keyboard.press('Enter')
  expect(await answer).toEqual({ answers: [{ id: 'x', selected: [XSS] }] })
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
})
