// Class 5: the askpass look and the "goes only to" line come from the companion-set `askpass` mark
// alone. An agent naming itself ask-user-askpass, or writing the line into its detail, gets neither.
import { cleanup, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { QuestionAsk } from '../../shared/ask'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => cleanup())

const passwordAsk = (overrides: Partial<QuestionAsk>): QuestionAsk =>
  makeAsk({
    title: 'sudo -k id -u',
    questions: [{ id: 'askpass', header: 'Password', question: '[sudo] password for dev:', secret: true }],
    ...overrides,
  })

it('the companion-set mark for a verified sudo: the askpass look and "goes only to sudo"', async () => {
  await renderInbox([
    passwordAsk({ agent: { name: 'ask-user-askpass' }, askpass: { receiver: 'sudo', verified: true } }),
  ])
  const line = screen.getByTestId('receiver-line')
  expect(line.textContent?.replace(/\s+/g, ' ').trim()).toBe('The answer goes only to sudo (checked by the companion).')
  expect(line.classList.contains('askpass')).toBe(true)
})

it('a mark whose receiver is not proven: a warning, no askpass look', async () => {
  await renderInbox([
    passwordAsk({ agent: { name: 'ask-user-askpass' }, askpass: { receiver: 'node', verified: false } }),
  ])
  const line = screen.getByTestId('receiver-line')
  expect(line.textContent).toContain('could not verify as sudo, ssh or git')
  expect(line.classList.contains('askpass')).toBe(false)
})

it('an agent calling itself ask-user-askpass, with the line in its own detail: "not verified", no askpass look', async () => {
  const borrowed = passwordAsk({ agent: { name: 'ask-user-askpass' } })
  borrowed.questions[0]!.detail = 'The answer goes only to `sudo -k id -u`.'
  await renderInbox([borrowed])
  const line = screen.getByTestId('receiver-line')
  expect(line.textContent?.replace(/\s+/g, ' ').trim()).toBe(
    'A password requested by ask-user-askpass; where the answer goes is not verified.',
  )
  expect(line.dataset['kind']).toBe('unverified')
  expect(document.querySelector('.askpass')).toBeNull()
})

it('any secret question without the mark says the same; a question that is not secret gets no line', async () => {
  await renderInbox([passwordAsk({ agent: { name: 'deploy-bot' } })])
  expect(screen.getByTestId('receiver-line').textContent).toContain(
    'A password requested by deploy-bot; where the answer goes is not verified.',
  )
  cleanup()
  await renderInbox([makeAsk({ agent: { name: 'ask-user-askpass' } })])
  expect(screen.queryByTestId('receiver-line')).toBeNull()
})
