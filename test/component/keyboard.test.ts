import { cleanup, fireEvent, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const twoQuestions = () =>
  makeAsk({
    askId: 'k1',
    questions: [
      { id: 'pkg', question: 'Package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }, { label: 'yarn' }] },
      { id: 'targets', question: 'Targets?', multi_select: true, options: [{ label: 'tests' }, { label: 'docs' }] },
    ],
  })

describe('keyboard', () => {
  it('focuses the first option, digits pick options of the focused question, Tab moves, Enter sends', async () => {
    const { bridge, user } = await renderInbox([twoQuestions()])
    const [first, second] = screen.getAllByTestId('question')
    // the window's first card takes focus right after its first paint
    await vi.waitFor(() => expect(document.activeElement).toBe(within(first!).getAllByRole('radio')[0]))
    await user.keyboard('3')
    expect(within(first!).getByRole<HTMLInputElement>('radio', { name: 'yarn' }).checked).toBe(true)
    expect(document.activeElement).toBe(within(first!).getByRole('radio', { name: 'yarn' }))
    await user.keyboard('9') // no ninth option: nothing happens
    expect(within(first!).getByRole<HTMLInputElement>('radio', { name: 'yarn' }).checked).toBe(true)
    within(second!).getAllByRole('checkbox')[0]!.focus()
    await user.keyboard('2')
    await user.keyboard('1')
    expect(
      within(second!)
        .getAllByRole<HTMLInputElement>('checkbox')
        .map((box) => box.checked),
    ).toEqual([true, true])
    await user.keyboard('{Enter}')
    expect(bridge.answered).toEqual([
      {
        askId: 'k1',
        answers: [
          { id: 'pkg', selected: ['yarn'] },
          { id: 'targets', selected: ['tests', 'docs'] },
        ],
      },
    ])
  })

  it('digits type into the text field instead of picking', async () => {
    const { store, user } = await renderInbox([twoQuestions()])
    const [first] = screen.getAllByTestId('question')
    await user.click(within(first!).getByRole('textbox'))
    await user.keyboard('2')
    expect(store.card('k1')?.questionDraft(0)).toEqual({ selected: [], custom: '2', skipped: false })
  })

  it('Enter during IME composition never sends; Shift+Enter types a new line', async () => {
    const ask = makeAsk({ askId: 'ime', questions: [{ id: 'name', question: 'Name it' }] })
    const { bridge, user } = await renderInbox([ask])
    const box = screen.getByRole('textbox')
    await user.type(box, '你好')
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true })
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 })
    expect(bridge.answered).toEqual([])
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
    expect(bridge.answered).toEqual([])
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(bridge.answered).toEqual([{ askId: 'ime', answers: [{ id: 'name', selected: [], custom: '你好' }] }])
  })

  it('Esc asks to confirm with "Keep it" focused; Esc again or Enter keeps the ask; Tab to "Yes, dismiss" dismisses', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'esc' })])
    await user.keyboard('{Escape}')
    const confirm = screen.getByTestId('dismiss-confirm')
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Keep it' }))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('dismiss-confirm')).toBeNull()
    // A stray Enter right after the confirmation opened keeps the ask (the review's L9).
    await user.keyboard('{Escape}')
    await user.keyboard('{Enter}')
    expect(screen.queryByTestId('dismiss-confirm')).toBeNull()
    expect(bridge.dismissed).toEqual([])
    await user.keyboard('{Escape}')
    await user.keyboard('{Tab}')
    await user.keyboard('{Enter}')
    expect(bridge.dismissed).toEqual(['esc'])
    expect(bridge.answered).toEqual([])
  })

  it('the Dismiss button also confirms first', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'd' })])
    await user.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(bridge.dismissed).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Yes, dismiss' }))
    expect(bridge.dismissed).toEqual(['d'])
    await bridge.emit({ type: 'ask/accepted', askId: 'd', outcome: 'cancelled' })
    expect(screen.queryByTestId('ask-view')).toBeNull()
    expect(screen.getByTestId('announcement').textContent?.trim()).toBe('Question dismissed.')
  })

  it('] and [ (or Alt+ArrowDown/Up) move between asks and focus the shown one', async () => {
    const now = Date.now()
    const asks = [
      makeAsk({ askId: 'x1', receivedAt: now - 3000 }),
      makeAsk({ askId: 'x2', receivedAt: now - 2000 }),
      makeAsk({ askId: 'y1', receivedAt: now - 4000, agent: { name: 'codex' } }),
    ]
    const { user } = await renderInbox(asks)
    const shown = () => screen.getByTestId('ask-view').dataset.askId
    // the agent that has waited longest first: codex (y1), then claude-code (x1, x2 oldest first)
    expect(screen.getAllByTestId('ask-item').map((item) => item.dataset.askId)).toEqual(['y1', 'x1', 'x2'])
    expect(shown()).toBe('y1')
    await user.keyboard(']')
    expect(shown()).toBe('x1')
    expect(screen.getByTestId('ask-view').contains(document.activeElement)).toBe(true)
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}')
    expect(shown()).toBe('x2')
    await user.keyboard('[[')
    expect(shown()).toBe('x1')
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}')
    expect(shown()).toBe('y1')
  })

  it('a focus request from the host (notification click) shows that ask, even before it arrives', async () => {
    const now = Date.now()
    const { bridge } = await renderInbox([
      makeAsk({ askId: 'f1', receivedAt: now - 2000 }),
      makeAsk({ askId: 'f2', receivedAt: now - 1000 }),
    ])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('f1')
    await bridge.focusAsk('f2')
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('f2')
    expect(screen.getByTestId('ask-view').contains(document.activeElement)).toBe(true)
    await bridge.focusAsk('f3')
    await bridge.emit({ type: 'ask/added', ask: makeAsk({ askId: 'f3', receivedAt: now }) })
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('f3')
  })
})
