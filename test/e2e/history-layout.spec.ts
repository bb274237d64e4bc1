// History in Chromium: a long approval title wraps in its own box, and the agent and time stay on the
// first line at the end (newcomer review L10: they were pushed onto a line of their own).
import { armed, expect, test } from './support/fixtures'

test('a long title wraps beside its badge; agent and time stay at the end of the first line', async ({
  page,
  agent,
  openInbox,
}) => {
  await openInbox(page)
  const command =
    'npm run build && npm run test:integration -- --reporter=verbose --grep "orders service migration with triggers and long names"'
  const decided = agent('Claude Code').client.requestApproval({
    tool: 'Bash',
    harness: 'claude-code',
    action: { kind: 'command', command, cwd: '/home/ada/src/shop-api' },
  })
  await expect(page.getByTestId('ask-item')).toHaveCount(1)
  await page.getByTestId('ask-item').click()
  await (await armed(page.getByTestId('approval-card'))).getByRole('button', { name: 'Allow once' }).click()
  await decided
  await page.getByRole('button', { name: 'History' }).click()
  const entry = page.getByTestId('history-entry')
  await expect(entry).toHaveCount(1)
  const badge = (await entry.getByTestId('history-badge').boundingBox())!
  const meta = (await entry.getByTestId('history-meta').boundingBox())!
  const box = (await entry.boundingBox())!
  expect(meta.y).toBeLessThan(badge.y + badge.height) // the same first line, not a line of its own
  expect(meta.x + meta.width).toBeGreaterThan(box.x + box.width - 40) // at its end
})
