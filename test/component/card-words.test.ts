// The card the person acts on (issue "The first hour", the review's M3, M4, M8, L8, L10 and the empty
// question): what it says, where the keyboard is, and what a settled or remote card no longer offers.
import { cleanup, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../renderer/src/i18n/i18n.svelte'
import { makeApproval, makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => {
  sessionStorage.clear()
  i18n.lang = 'en'
})
afterEach(cleanup)

const command = { tool: 'Bash', harness: 'claude-code', action: { kind: 'command', command: 'npm ci' } } as const

describe('an approval card speaks of an approval', () => {
  it('heads with what the agent wants to do, names the tool once, and explains Allow, Deny and Dismiss', async () => {
    await renderInbox([makeApproval(command, { agent: { name: 'Claude Code' } })])
    const card = screen.getByTestId('approval-card')
    expect(within(card).getByRole('heading', { level: 2 }).textContent?.trim()).toBe(
      'Claude Code wants to run a command',
    )
    expect(within(card).getByTestId('approval-tool').textContent?.trim()).toBe('Bash')
    expect(within(card).getByTestId('approval-explain').textContent).toContain('Dismiss leaves the choice')
    expect(card.textContent).not.toContain('via claude-code')
    expect(card.textContent).not.toContain('Question from')
  })

  it('in Chinese too', async () => {
    await renderInbox([makeApproval(command, { agent: { name: 'Claude Code' } })])
    i18n.lang = 'zh'
    await tick()
    const card = screen.getByTestId('approval-card')
    expect(within(card).getByRole('heading', { level: 2 }).textContent?.trim()).toBe('Claude Code 想要运行命令')
  })

  it('takes the keyboard itself when nothing has it, never one of its buttons', async () => {
    await renderInbox([makeApproval(command)])
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('approval-card')))
  })
})

describe('a click on a list row moves the keyboard into that card', () => {
  it('its first option has focus (and is not picked), so the digits act on it at once', async () => {
    const first = makeAsk({ askId: 'one' })
    const second = makeAsk({
      askId: 'two',
      receivedAt: first.receivedAt + 1,
      questions: [{ id: 'port', question: 'Which port?', options: [{ label: '3000' }, { label: '5173' }] }],
    })
    const { user, bridge } = await renderInbox([first, second])
    const rows = screen.getAllByTestId('ask-item')
    await user.click(rows.find((row) => row.textContent?.includes('Which port?'))!)
    const card = screen.getByTestId('ask-view')
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole('radio', { name: /3000/ })))
    expect(within(card).getByRole<HTMLInputElement>('radio', { name: /3000/ }).checked).toBe(false)
    await user.keyboard('2')
    await user.keyboard('{Enter}')
    expect(bridge.answered).toEqual([{ askId: 'two', answers: [{ id: 'port', selected: ['5173'] }] }])
  })
})

describe('what the card says', () => {
  it('an empty question reads "(no question text)", and the single-select box says typing replaces the pick', async () => {
    await renderInbox([makeAsk({ questions: [{ id: 'q', question: '', options: [{ label: 'a' }, { label: 'b' }] }] })])
    expect(screen.getByTestId('no-question-text').textContent).toBe('(no question text)')
    expect(screen.getByRole('textbox', { name: /typing replaces your pick/ })).toBeTruthy()
  })

  it('a withdrawn card stops its waiting time and its key hint', async () => {
    const { bridge } = await renderInbox([makeAsk({ askId: 'w' })])
    expect(screen.getByTestId('waiting')).toBeTruthy()
    expect(screen.getByTestId('keys-hint')).toBeTruthy()
    await bridge.emit({ type: 'ask/settled', askId: 'w', outcome: 'aborted' })
    expect(screen.queryByTestId('waiting')).toBeNull()
    expect(screen.queryByTestId('keys-hint')).toBeNull()
  })

  it('a remote agent’s ask has no Dismiss (a desk cannot withdraw it), and an unanswerable one no send', async () => {
    await renderInbox([
      makeAsk({ askId: 'r', origin: { kind: 'relay', agentId: 'agent-1' } }),
      makeAsk({ askId: 's', origin: { kind: 'relay', agentId: 'agent-2', unanswerable: 'remote passwords' } }),
    ])
    const view = screen.getByTestId('ask-view')
    const shown = view.getAttribute('data-ask-id')
    expect(within(view).queryByRole('button', { name: 'Dismiss' })).toBeNull()
    if (shown === 's') expect(within(view).queryByRole('button', { name: /^Send answer/ })).toBeNull()
    else expect(within(view).getByRole('button', { name: /^Send answer/ })).toBeTruthy()
  })
})
