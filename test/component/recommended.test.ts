import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseRecommended } from '../../shared/recommended'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

describe('parseRecommended', () => {
  it.each([
    ['pnpm (Recommended)', 'pnpm', true],
    ['pnpm(recommended)', 'pnpm', true],
    ['Postgres （推荐）', 'Postgres', true],
    ['Postgres (推荐)', 'Postgres', true],
    ['SQLite（Recommended）', 'SQLite', true],
    ['(Recommended)', '(Recommended)', true],
    ['Recommended reading', 'Recommended reading', false],
    ['(Recommended) first', '(Recommended) first', false],
  ])('%s', (label, text, recommended) => {
    expect(parseRecommended(label)).toEqual({ text, recommended })
  })
})

describe('the Recommended badge', () => {
  const ask = makeAsk({
    askId: 'rec',
    questions: [
      {
        id: 'db',
        question: 'Which database?',
        options: [{ label: 'Postgres （推荐）' }, { label: 'SQLite (Recommended)' }, { label: 'MySQL' }],
      },
    ],
  })

  it('marks recommended options, shows the label without the suffix and pre-selects nothing', async () => {
    await renderInbox([ask])
    const options = screen.getAllByTestId('option')
    expect(options.map((option) => within(option).queryByTestId('recommended-badge') !== null)).toEqual([
      true,
      true,
      false,
    ])
    expect(options[0]!.textContent).not.toContain('推荐）')
    expect(within(options[0]!).getByText('Postgres')).toBeTruthy()
    expect(screen.getAllByRole<HTMLInputElement>('radio').map((radio) => radio.checked)).toEqual([false, false, false])
  })

  it('returns the raw label, suffix included', async () => {
    const { bridge, user } = await renderInbox([ask])
    await user.click(screen.getByRole('radio', { name: /Postgres/ }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered[0]!.answers).toEqual([{ id: 'db', selected: ['Postgres （推荐）'] }])
  })
})
