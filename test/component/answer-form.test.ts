import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const targets = makeAsk({
  questions: [
    {
      id: 'targets',
      header: 'Targets',
      question: 'What should I update?',
      multi_select: true,
      options: [{ label: 'tests' }, { label: 'docs' }, { label: 'changelog' }],
    },
  ],
})

describe('submit payloads', () => {
  it('single-select: the raw label, "(Recommended)" included', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'a1' })])
    await user.click(screen.getByRole('radio', { name: /pnpm/ }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([{ askId: 'a1', answers: [{ id: 'pkg', selected: ['pnpm (Recommended)'] }] }])
    expect(JSON.stringify(bridge.answered[0]!.answers)).toBe('[{"id":"pkg","selected":["pnpm (Recommended)"]}]')
  })

  it('multi-select with custom text keeps labels (in option order) and custom together', async () => {
    const { bridge, user } = await renderInbox([{ ...targets, askId: 'm1' }])
    await user.click(screen.getByRole('checkbox', { name: 'docs' }))
    await user.click(screen.getByRole('checkbox', { name: 'tests' }))
    await user.type(screen.getByRole('textbox', { name: 'Add your own words' }), 'release notes')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(JSON.stringify(bridge.answered[0]!.answers)).toBe(
      '[{"id":"targets","selected":["tests","docs"],"custom":"release notes"}]',
    )
  })

  it('a skipped question is {id, selected: []} and unchecking keeps nothing', async () => {
    const { bridge, user } = await renderInbox([{ ...targets, askId: 's1' }])
    await user.click(screen.getByRole('checkbox', { name: 'docs' }))
    await user.click(screen.getByRole('button', { name: 'Skip this question' }))
    expect(screen.getByRole('button', { name: 'Skipped — undo' }).getAttribute('aria-pressed')).toBe('true')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered[0]!.answers).toEqual([{ id: 'targets', selected: [] }])
  })

  it('single-select answered in own words: selected [] and the pick is cleared; blank custom is omitted', async () => {
    const ask = makeAsk({
      askId: 'c1',
      questions: [
        makeAsk().questions[0]!,
        { id: 'notes', question: 'Anything else?' },
        { id: 'more', question: 'More?', options: [{ label: 'yes' }, { label: 'no' }] },
      ],
    })
    const { bridge, user } = await renderInbox([ask])
    const [first, second, third] = screen.getAllByTestId('question')
    const npm = within(first!).getByRole<HTMLInputElement>('radio', { name: 'npm' })
    await user.click(npm)
    expect(npm.checked).toBe(true)
    await user.type(within(first!).getByRole('textbox'), 'bun')
    expect(npm.checked).toBe(false)
    await user.type(within(second!).getByRole('textbox'), 'ship today')
    await user.click(within(third!).getByRole('radio', { name: 'yes' }))
    await user.type(within(third!).getByRole('textbox'), '   ')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(JSON.stringify(bridge.answered[0]!.answers)).toBe(
      '[{"id":"pkg","selected":[],"custom":"bun"},{"id":"notes","selected":[],"custom":"ship today"},{"id":"more","selected":["yes"]}]',
    )
  })

  it('sends nothing while a question is neither answered nor skipped, and says which', async () => {
    const ask = makeAsk({ askId: 'u1', questions: [makeAsk().questions[0]!, { id: 'why', question: 'Why?' }] })
    const { bridge, user } = await renderInbox([ask])
    await user.click(screen.getByRole('radio', { name: /yarn/ }))
    // The pale button says how far the batch is (the review's "2 of 3 answered").
    await user.click(screen.getByRole('button', { name: 'Send answer · 1 of 2 answered' }))
    expect(bridge.answered).toEqual([])
    const problems = screen.getAllByTestId('question-problems')
    expect(problems).toHaveLength(1)
    expect(problems[0]!.textContent).toBe('Answer this question or skip it.')
    expect(screen.getAllByTestId('question')[1]!.getAttribute('aria-describedby')).toBe(problems[0]!.id)
    await user.type(screen.getByRole('textbox', { name: 'Answer in your own words' }), 'because')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toHaveLength(1)
  })

  it('an accepted answer removes the card; a rejected one says why and keeps it', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'r1' }), makeAsk({ askId: 'r2' })])
    await user.click(screen.getByRole('radio', { name: /yarn/ }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sending…' }).disabled).toBe(true)
    await bridge.emit({ type: 'ask/rejected', askId: 'r1', code: 'INVALID_ANSWER', reason: 'bad label' })
    expect(screen.getByRole('alert').textContent).toBe('The companion refused this answer: bad label')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    await bridge.emit({ type: 'ask/accepted', askId: 'r1', outcome: 'answered' })
    await bridge.emit({ type: 'ask/settled', askId: 'r1', outcome: 'answered' })
    expect(screen.getAllByTestId('ask-item')).toHaveLength(1)
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('r2')
    expect(screen.getByTestId('announcement').textContent?.trim()).toBe('Answer sent.')
  })
})
