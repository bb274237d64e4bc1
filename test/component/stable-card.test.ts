import { cleanup, fireEvent, screen } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

describe('the card on screen', () => {
  it('stays on screen when an ask from another agent arrives and sorts first', async () => {
    const now = Date.now()
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'mine', receivedAt: now - 5000 })])
    const box = screen.getByRole('textbox')
    await user.click(box)
    await user.keyboard('go with plan ')
    await bridge.emit({
      type: 'ask/added',
      ask: makeAsk({
        askId: 'other',
        receivedAt: now - 10_000,
        agent: { name: 'codex' },
        questions: [
          { id: 'db', question: 'Delete the production database?', options: [{ label: 'Yes' }, { label: 'No' }] },
        ],
      }),
    })
    // the agent that has waited longer is listed first, but the card being typed into is still the one shown
    expect(screen.getAllByTestId('ask-item').map((item) => item.dataset.askId)).toEqual(['other', 'mine'])
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('mine')
    expect(document.activeElement).toBe(screen.getByRole('textbox'))
    await user.keyboard('1{Enter}')
    expect(bridge.answered.map((a) => a.askId)).not.toContain('other')
  })

  it('an Esc that ends an IME composition does not start a dismissal', async () => {
    const { bridge } = await renderInbox([makeAsk({ askId: 'ime-esc' })])
    const box = screen.getByRole('textbox')
    box.focus()
    fireEvent.keyDown(box, { key: 'Escape', isComposing: true, keyCode: 229 })
    expect(screen.queryByTestId('dismiss-confirm')).toBeNull()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(bridge.dismissed).toEqual([])
  })
})

describe('while disconnected', () => {
  it('refuses to send, says so, keeps the answer, and sends once connected again', async () => {
    const { bridge, user } = await renderInbox([makeAsk({ askId: 'off' })])
    await user.click(screen.getByRole('radio', { name: /^npm/ }))
    await bridge.setStatus('closed')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([])
    expect(screen.getByRole('alert').textContent).toContain('Not connected to the companion')
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^npm/ }).checked).toBe(true)
    await bridge.setStatus('open')
    await user.click(screen.getByRole('button', { name: 'Send answer' }))
    expect(bridge.answered).toEqual([{ askId: 'off', answers: [{ id: 'pkg', selected: ['npm'] }] }])
  })
})
