// Agent Markdown as the window renders it in Chromium: block Markdown in `detail`, inline Markdown in
// question text and descriptions, literal labels and headers, hidden-character markers, the
// plan-review card, image chips, and links that ask before they open (and never navigate the page).
import { askView, expect, test, waitArmed } from './support/fixtures'

const PLAN = [
  '## Migration plan',
  '',
  '1. Back up the `users` table',
  '2. Run **the migration**',
  '',
  '| step | risk |',
  '|------|:----:|',
  '| backup | low |',
  '',
  '```sh',
  'npm run migrate',
  '```',
  '',
  '> Rollback takes 5 min. ![chart](https://charts.example/risk.png)',
  '',
  'Docs: [runbook](https://раypal.example/runbook)',
].join('\n')

test('a plan review: the plan as block Markdown, Approve plan as the primary action, the label returned', async ({
  page,
  agent,
  openInbox,
}) => {
  await openInbox(page)
  const answer = agent('planner').ask([
    {
      id: 'plan',
      header: '**Plan**',
      question: 'Approve the plan for `prod`?\n  # kept as written',
      detail: PLAN,
      options: [{ label: 'Approve (Recommended)' }, { label: 'Revise', description: 'Send it back with *notes*' }],
      intent: { kind: 'plan-review', approve: 'Approve (Recommended)' },
    },
  ])
  const card = askView(page).getByTestId('question')
  const detail = card.getByTestId('question-detail')
  await expect(detail.locator('ol > li')).toHaveText(['Back up the users table', 'Run the migration'])
  await expect(detail.locator('code').first()).toHaveText('users')
  await expect(detail.locator('table th')).toHaveText(['step', 'risk'])
  await expect(detail.locator('pre')).toContainText('npm run migrate')
  await expect(detail.getByTestId('image-chip')).toContainText('chart')
  await expect(detail.getByTestId('image-chip')).toContainText('charts.example')
  await expect(page.locator('img')).toHaveCount(0)
  await expect(card.locator('.header')).toHaveText('**Plan**') // headers stay literal
  await expect(card.locator('p.text')).toHaveText('Approve the plan for prod?\n  # kept as written')
  await expect(card.locator('p.text code')).toHaveText('prod')
  await expect(card.locator('.desc em')).toHaveText('notes')
  await expect(card.getByRole('radio')).toHaveCount(1) // Revise; Approve is the primary button
  await waitArmed(page)
  await card.getByTestId('approve-plan').click()
  await expect(card.getByTestId('approve-plan')).toHaveAttribute('aria-pressed', 'true')
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'plan', selected: ['Approve (Recommended)'] }] })
})

test('a link asks in the page first (full URL, punycode host), then window.open with noopener; the page never navigates', async ({
  page,
  agent,
  openInbox,
}) => {
  // Record what the page asks the browser to open, instead of opening it (there is no internet here).
  await page.addInitScript(() => {
    const calls: unknown[][] = []
    Object.defineProperty(window, '__opened', { value: calls })
    window.open = (...args: unknown[]) => {
      calls.push(args)
      return null
    }
  })
  await openInbox(page)
  const pageUrl = page.url()
  void agent('linker').ask([
    { id: 'q', question: 'See [the runbook](https://раypal.example/runbook?x=1) first', options: [{ label: 'ok' }] },
  ])
  const link = askView(page).getByTestId('md-link')
  await expect(link).toHaveText('the runbook')
  expect(await link.evaluate((element) => [element.tagName, element.getAttribute('href')])).toEqual(['BUTTON', null])
  await link.click()
  const confirm = page.getByTestId('link-confirm')
  await expect(confirm).toContainText('Open a link to xn--ypal-43d9g.example?')
  await expect(confirm.getByTestId('link-url')).toHaveText('https://xn--ypal-43d9g.example/runbook?x=1')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  const opened = () => page.evaluate(() => (window as unknown as { __opened: unknown[][] }).__opened)
  expect(await opened()).toEqual([])

  await link.click()
  await page.getByTestId('link-open').click()
  expect(await opened()).toEqual([['https://xn--ypal-43d9g.example/runbook?x=1', '_blank', 'noopener,noreferrer']])
  expect(page.url()).toBe(pageUrl)
})

test('hidden characters show as markers in text, labels and headers', async ({ page, agent, openInbox }) => {
  await openInbox(page)
  const label = 'ok\u200F'
  const answer = agent('hider').ask([
    { id: 'h', header: 'Rel\u202Eease', question: 'Run exe\u202Efdp.sh\u200B?', options: [{ label }] },
  ])
  const card = askView(page).getByTestId('question')
  await expect(card.locator('p.text')).toHaveText('Run exe⟨U+202E⟩fdp.sh⟨U+200B⟩?')
  await expect(card.locator('.header')).toHaveText('Rel⟨U+202E⟩ease')
  await expect(card.getByTestId('option-label')).toHaveText('ok⟨U+200F⟩')
  await waitArmed(page)
  await card.getByRole('radio').check()
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'h', selected: [label] }] })
})

test("the page takes HTML only through Svelte's Trusted Types policy: any other HTML sink throws", async ({
  page,
  openInbox,
}) => {
  await openInbox(page)
  const result = await page.evaluate(() => {
    try {
      document.body.insertAdjacentHTML('beforeend', '<img src=x>')
      return 'written'
    } catch (error) {
      return error instanceof TypeError ? 'refused' : String(error)
    }
  })
  expect(result).toBe('refused')
  await expect(page.locator('img')).toHaveCount(0)
})
