// A 2,000-ask inbox through the real core: the list renders a window of rows, yet it is one list over the
// whole inbox for assistive technology, and the keyboard reaches every ask.
import { expect, pendingCount, test } from './support/fixtures'

const AGENTS = 40
const PER_AGENT = 50
const TOTAL = AGENTS * PER_AGENT

test('a 2,000-ask inbox: a viewport of rows in the DOM, one list, ] and arrows through every ask', async ({
  page,
  agent,
  openInbox,
  companion,
}) => {
  test.setTimeout(120_000)
  for (let a = 0; a < AGENTS; a++) {
    const bot = agent(`agent-${String(a).padStart(2, '0')}`)
    for (let q = 0; q < PER_AGENT; q++) {
      void bot.ask([
        {
          id: 'q',
          header: `Task ${a}.${q}`,
          question: `Agent ${a}, question ${q}: go on?`,
          options: [{ label: 'Yes' }, { label: 'No' }],
        },
      ])
    }
  }
  await pendingCount(companion, TOTAL)
  await openInbox(page)
  await expect(page.getByTestId('pending-count')).toHaveText(`${TOTAL} pending`)

  const list = page.getByTestId('ask-list')
  const items = list.locator('li[aria-posinset]')
  const view = page.getByTestId('ask-view')
  await expect(items.first()).toHaveAttribute('aria-posinset', '1')
  // The window showed its first card before the rest of the bounded snapshot arrived, and arrivals never
  // change the card: the person picks the top ask with a click on its row.
  await page.getByTestId('ask-item').first().click()

  // Only a viewport's worth of rows (plus a few beyond its edges) is rendered.
  const rendered = await page.getByTestId('ask-item').count()
  expect(rendered).toBeGreaterThan(5)
  expect(rendered).toBeLessThan(40)
  expect(await page.getByTestId('agent-group').count()).toBeLessThan(5)

  // One list over the whole inbox: every rendered item knows its place among all 2,000.
  await expect(list.locator('ul')).toHaveCount(1)
  const places = await items.evaluateAll((lis) =>
    lis.map((li) => [li.getAttribute('aria-posinset'), li.getAttribute('aria-setsize')]),
  )
  expect(places).toEqual(places.map((_, i) => [String(i + 1), String(TOTAL)]))

  /** The selected row: its place in the inbox, and that it is the ask the card shows. */
  const selected = list.locator('li:has([aria-current="true"])')
  const expectSelected = async (position: number): Promise<void> => {
    await expect(selected).toHaveAttribute('aria-posinset', String(position))
    await expect(selected).toBeInViewport({ ratio: 1 })
    await expect(view).toHaveAttribute(
      'data-ask-id',
      (await selected.getByTestId('ask-item').getAttribute('data-ask-id'))!,
    )
  }

  // `]` moves to the next ask, and the list follows it: 49 presses reach the end of the first group.
  await expectSelected(1)
  await page.keyboard.press(']')
  await expectSelected(2)
  for (let i = 0; i < PER_AGENT - 2; i++) await page.keyboard.press(']')
  await expectSelected(PER_AGENT)
  expect(await page.getByTestId('ask-item').count()).toBeLessThan(40)

  // ArrowDown from the list moves focus across the group boundary to the next agent's first ask.
  await selected.getByTestId('ask-item').focus()
  await page.keyboard.press('ArrowDown')
  await expectSelected(PER_AGENT + 1)
  await expect(page.locator('[data-testid="ask-item"]:focus')).toHaveAttribute('aria-current', 'true')
  await expect(page.locator(':focus').locator('xpath=..')).toHaveAttribute('aria-posinset', String(PER_AGENT + 1))
  // The next agent's header is a row of the list, shown above its first ask.
  const header = selected.locator('xpath=preceding-sibling::li[1]')
  await expect(header).toHaveAttribute('data-testid', 'agent-group')
  await expect(header).toBeInViewport({ ratio: 1 })
  await page.keyboard.press('ArrowUp')
  await expectSelected(PER_AGENT)
  await expect(page.locator(':focus').locator('xpath=..')).toHaveAttribute('aria-posinset', String(PER_AGENT))

  // `[` from the first ask wraps to the last one, 2,000 rows down, scrolled into view.
  for (let i = 0; i < PER_AGENT; i++) await page.keyboard.press('[')
  await expectSelected(TOTAL)
  expect(await page.getByTestId('ask-item').count()).toBeLessThan(40)

  // A burst while the window is open (300 asks from 6 new agents): the list takes them all, the card stays.
  const shown = await view.getAttribute('data-ask-id')
  for (let a = 0; a < 6; a++) {
    const bot = agent(`late-${a}`)
    for (let q = 0; q < PER_AGENT; q++)
      void bot.ask([{ id: 'q', question: `Late ${a}, question ${q}?`, options: [{ label: 'Yes' }, { label: 'No' }] }])
  }
  await expect(page.getByTestId('pending-count')).toHaveText(`${TOTAL + 300} pending`)
  await expect(items.first()).toHaveAttribute('aria-setsize', String(TOTAL + 300))
  await expect(view).toHaveAttribute('data-ask-id', shown!)
  expect(await page.getByTestId('ask-item').count()).toBeLessThan(40)
})
