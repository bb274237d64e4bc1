import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const ask = () =>
  makeAsk({
    askId: 'dr',
    questions: [
      { id: 'targets', question: 'Targets?', multi_select: true, options: [{ label: 'tests' }, { label: 'docs' }] },
      { id: 'notes', question: 'Notes?' },
    ],
  })

describe('drafts', () => {
  it('survive a reload (a new window state over the same sessionStorage)', async () => {
    const first = await renderInbox([ask()])
    await first.user.click(screen.getByRole('checkbox', { name: 'docs' }))
    await first.user.type(screen.getAllByRole('textbox')[1]!, 'keep me')
    cleanup()

    const second = await renderInbox([ask()])
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'docs' }).checked).toBe(true)
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'tests' }).checked).toBe(false)
    expect(screen.getAllByRole<HTMLTextAreaElement>('textbox')[1]!.value).toBe('keep me')
    await second.user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(second.bridge.answered[0]!.answers).toEqual([
      { id: 'targets', selected: ['docs'] },
      { id: 'notes', selected: [], custom: 'keep me' },
    ])
  })

  it('are kept per ask', async () => {
    const other = makeAsk({ askId: 'other', receivedAt: Date.now() })
    const { user } = await renderInbox([ask(), other])
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'dr')!)
    await user.click(screen.getByRole('checkbox', { name: 'tests' }))
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'other')!)
    expect(screen.getAllByRole<HTMLInputElement>('radio').some((radio) => radio.checked)).toBe(false)
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'dr')!)
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'tests' }).checked).toBe(true)
  })

  it('are removed once the ask is answered, and dropped for asks no longer pending after a reload', async () => {
    const { bridge, user } = await renderInbox([ask()])
    await user.click(screen.getByRole('checkbox', { name: 'docs' }))
    expect(sessionStorage.getItem('ask-user.draft.dr')).not.toBeNull()
    const [, notes] = screen.getAllByTestId('question')
    await user.click(within(notes!).getByRole('button', { name: 'Skip this question' }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    await bridge.emit({ type: 'ask/accepted', askId: 'dr', outcome: 'answered' })
    expect(sessionStorage.getItem('ask-user.draft.dr')).toBeNull()
    cleanup()

    sessionStorage.setItem('ask-user.draft.gone', JSON.stringify([{ selected: [], custom: 'x', skipped: false }]))
    await renderInbox([])
    expect(sessionStorage.getItem('ask-user.draft.gone')).toBeNull()
  })

  it('a reconnect whose bounded snapshot leaves the ask for a later question/added keeps it answerable', async () => {
    const { bridge, user } = await renderInbox([ask()])
    await user.click(screen.getByRole('checkbox', { name: 'docs' }))
    // The window reconnects to a large inbox: this ask is not in the snapshot, it follows as question/added.
    await bridge.emit({ type: 'snapshot', pending: [makeAsk({ askId: 'older', receivedAt: 1 })] })
    await bridge.emit({ type: 'ask/added', ask: ask() })
    await user.click(screen.getAllByTestId('ask-item').find((item) => item.dataset.askId === 'dr')!)
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'docs' }).checked).toBe(true)
    expect(screen.getByTestId('pending-count').textContent).toBe('2 pending')
    const [, notes] = screen.getAllByTestId('question')
    await user.click(within(notes!).getByRole('button', { name: 'Skip this question' }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered.at(-1)).toMatchObject({
      askId: 'dr',
      answers: [
        { id: 'targets', selected: ['docs'] },
        { id: 'notes', selected: [] },
      ],
    })
  })
})

describe('a stored draft that is not well formed', () => {
  const notes = () => makeAsk({ askId: 'bad', questions: [{ id: 'notes', question: 'Notes?' }] })

  it.each([
    ['not JSON', '{"selected": ['],
    ['not a list', JSON.stringify({ selected: [], custom: 'x', skipped: false })],
    ['a label that is not a string', JSON.stringify([{ selected: [7], custom: '', skipped: false }])],
    ['no skipped flag', JSON.stringify([{ selected: [], custom: 'x' }])],
    ['a question that is not an object', JSON.stringify(['keep me'])],
  ])('(%s) is dropped, and the card starts empty', async (_, stored) => {
    sessionStorage.setItem('ask-user.draft.bad', stored)
    const { user, bridge } = await renderInbox([notes()])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('bad')
    expect(screen.getByRole<HTMLTextAreaElement>('textbox').value).toBe('')
    expect(sessionStorage.getItem('ask-user.draft.bad')).toBeNull()
    await user.type(screen.getByRole('textbox'), 'fresh')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered[0]!.answers).toEqual([{ id: 'notes', selected: [], custom: 'fresh' }])
  })

  it('a question left untouched (null, a hole in the list) loads as empty, the rest as stored', async () => {
    sessionStorage.setItem(
      'ask-user.draft.dr',
      JSON.stringify([null, { selected: [], custom: 'kept', skipped: false }]),
    )
    await renderInbox([ask()])
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'docs' }).checked).toBe(false)
    expect(screen.getAllByRole<HTMLTextAreaElement>('textbox')[1]!.value).toBe('kept')
  })
})
