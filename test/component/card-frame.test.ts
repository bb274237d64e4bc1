// The frame both kinds of card share (CardFrame.svelte): an approval card shows the same offline and
// refusal alerts, settled notice and key hint as a question card (those have their tests in
// stable-card, answer-form and settled-elsewhere).
import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeApproval } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(cleanup)

const approval = () => makeApproval({ tool: 'Bash', action: { kind: 'command', command: 'npm test' } }, { askId: 'ap' })

describe('the card frame of an approval', () => {
  it('says it is offline, then why the companion refused, each once, in the approval card', async () => {
    const { bridge, user } = await renderInbox([approval()])
    const card = screen.getByTestId('approval-card')
    expect(card.dataset.askId).toBe('ap')
    expect(card.getAttribute('aria-labelledby')).toBe('ask-title')
    await bridge.setStatus('closed')
    await user.click(within(card).getByRole('button', { name: 'Allow once' }))
    expect(bridge.decided).toEqual([])
    expect(
      within(card)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['Not connected to the companion; your answer is kept — send it again once connected.'])
    await bridge.setStatus('open')
    await user.click(within(card).getByRole('button', { name: 'Allow once' }))
    expect(bridge.decided).toEqual([{ askId: 'ap', decision: { behavior: 'allow' } }])
    await bridge.emit({ type: 'ask/rejected', askId: 'ap', code: 'INVALID_ANSWER', reason: 'not now' })
    expect(
      within(card)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['The companion refused this answer: not now'])
  })

  it('shows the settled notice when settled elsewhere, without the draft line, and keeps its key hint', async () => {
    const { bridge } = await renderInbox([approval()])
    const card = screen.getByTestId('approval-card')
    expect(card.lastElementChild?.textContent).toContain('Ctrl+Enter deny with the reason')
    await bridge.emit({ type: 'ask/settled', askId: 'ap', outcome: 'aborted' })
    const notice = within(card).getByTestId('settled-notice')
    // The wording of an approval's ending is the approvals work's (issue 29 item 3); the frame only places it.
    expect(notice.textContent).not.toBe('')
    expect(notice.textContent).not.toContain('Your draft is kept below')
    expect(within(card).queryByRole('button', { name: 'Allow once' })).toBeNull()
  })
})
