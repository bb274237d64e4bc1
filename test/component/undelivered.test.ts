// The person is told when their answer could not reach its agent (it disconnected as the answer was
// sent, or just before): the companion keeps the answer in history as undelivered.
import { cleanup, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => cleanup())

const UNDELIVERED = 'The agent disconnected before your answer reached it; the answer is kept in history.'

it('accepted but undelivered: the card leaves and the person is told the answer did not reach the agent', async () => {
  const { bridge, user } = await renderInbox([makeAsk({ askId: 'u1' })])
  await user.click(screen.getByRole('radio', { name: 'npm' }))
  await user.click(screen.getByRole('button', { name: 'Send answer' }))
  await bridge.emit({ type: 'ask/settled', askId: 'u1', outcome: 'answered' })
  await bridge.emit({ type: 'ask/accepted', askId: 'u1', outcome: 'answered', undelivered: true })
  expect(screen.queryByTestId('ask-view')).toBeNull()
  expect(screen.getByTestId('announcement').textContent?.trim()).toBe(UNDELIVERED)
})

it('the agent left while the answer was on its way: the card says the agent went away, and the person is told', async () => {
  const { bridge, user } = await renderInbox([makeAsk({ askId: 'u2' })])
  await user.click(screen.getByRole('radio', { name: 'npm' }))
  await user.click(screen.getByRole('button', { name: 'Send answer' }))
  await bridge.emit({ type: 'ask/settled', askId: 'u2', outcome: 'agent-gone' })
  await bridge.emit({
    type: 'ask/rejected',
    askId: 'u2',
    code: 'NOT_PENDING',
    reason: 'the agent disconnected before your answer reached it; the answer is kept in history as undelivered',
  })
  expect(screen.getByTestId('settled-notice').textContent).toContain('The agent went away.')
  expect(screen.getByTestId('announcement').textContent?.trim()).toBe(UNDELIVERED)
})
