import { cleanup, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('settled elsewhere', () => {
  it('a card with a draft stays with the notice until closed', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 's1' })])
    await user.type(screen.getByRole('textbox'), 'half an answer')
    await bridge.emit({ type: 'ask/settled', askId: 's1', outcome: 'answered' })
    const notice = screen.getByTestId('settled-notice')
    expect(notice.textContent).toContain('Answered in another window.')
    expect(notice.textContent).toContain('Your draft is kept below')
    const box = screen.getByRole<HTMLTextAreaElement>('textbox')
    expect(box.value).toBe('half an answer')
    expect(box.readOnly).toBe(true)
    expect(screen.getAllByRole<HTMLInputElement>('radio').every((radio) => radio.disabled)).toBe(true)
    expect(screen.queryByRole('button', { name: 'Send answer' })).toBeNull()
    expect(screen.getByTestId('pending-count').textContent).toBe('0 pending')
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByTestId('ask-view')).toBeNull()
    expect(screen.getByTestId('empty-inbox')).toBeTruthy()
    expect(sessionStorage.getItem('ask-user.draft.s1')).toBeNull()
  })

  it('a card without a draft says so, then leaves', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const { bridge } = await renderInbox([makeAsk({ askId: 's2' }), makeAsk({ askId: 's3', receivedAt: Date.now() })], {
      lingerMs: 1000,
    })
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('s2')
    await bridge.emit({ type: 'ask/settled', askId: 's2', outcome: 'aborted' })
    expect(screen.getByTestId('settled-notice').textContent).toContain('The agent withdrew this question.')
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
    await vi.advanceTimersByTimeAsync(1000)
    // The card took focus when it was shown: it stays until focus leaves it (arming.test.ts has the whole rule).
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('s2')
    screen.getByRole('button', { name: 'Inbox' }).focus()
    await vi.advanceTimersByTimeAsync(0)
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('s3')
    expect(screen.getAllByTestId('ask-item')).toHaveLength(1)
  })

  it('an ask not on screen and without a draft leaves at once', async () => {
    const { bridge } = await renderInbox([makeAsk({ askId: 'a' }), makeAsk({ askId: 'b', receivedAt: Date.now() })])
    await bridge.emit({ type: 'ask/settled', askId: 'b', outcome: 'agent-gone' })
    expect(screen.getAllByTestId('ask-item').map((item) => item.dataset.askId)).toEqual(['a'])
  })

  it('losing the race to another window keeps the draft and says so', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'race' })])
    await user.click(screen.getByRole('radio', { name: 'npm' }))
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    await bridge.emit({ type: 'ask/settled', askId: 'race', outcome: 'answered' })
    expect(screen.queryByTestId('settled-notice')).toBeNull()
    await bridge.emit({ type: 'ask/rejected', askId: 'race', code: 'NOT_PENDING', reason: 'not pending' })
    expect(screen.getByTestId('settled-notice').textContent).toContain('Answered in another window.')
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'npm' }).checked).toBe(true)
  })

  it('new asks appear live and the count follows', async () => {
    const { bridge } = await renderInbox([])
    expect(screen.getByTestId('empty-inbox')).toBeTruthy()
    await bridge.emit({ type: 'ask/added', ask: makeAsk({ askId: 'n1' }) })
    expect(screen.getByTestId('pending-count').textContent).toBe('1 pending')
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('n1')
  })
})
