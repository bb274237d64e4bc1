// The list at many asks from many agents (newcomer review M6, M7, L6): who has waited longest comes
// first, rows say the question, agent names read as self-declared headings, one agent's asks can be
// dismissed together (only those the confirmation counted), and notices clear together and open.
import { screen, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { InboxNotice } from '../../shared/ask'
import { makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

const now = Date.now()
const question = (text: string, header?: string) => [
  { id: 'q', question: text, ...(header ? { header } : {}), options: [{ label: 'Yes' }, { label: 'No' }] },
]
const cursor = { name: 'Cursor', cwd: '/src/app' }
const bot = { name: 'deploy-bot.sh', cwd: '/srv/deploy' }

const rows = () => screen.getAllByTestId('ask-item').map((item) => item.dataset.askId)
const headings = () => screen.getAllByTestId('agent-group').map((group) => within(group).getByRole('heading'))

describe('the list', () => {
  it('puts the agent that has waited longest first, each agent’s asks oldest first, whoever asked last', async () => {
    await renderInbox([
      makeAsk({ askId: 'c-new', agent: cursor, receivedAt: now - 1_000 }),
      makeAsk({ askId: 'b-old', agent: bot, receivedAt: now - 240_000 }),
      makeAsk({ askId: 'c-old', agent: cursor, receivedAt: now - 60_000 }),
      makeAsk({ askId: 'b-new', agent: bot, receivedAt: now - 2_000 }),
    ])
    expect(headings().map((h) => h.textContent?.replace(/[0-9]$/, '').trim())).toEqual(['deploy-bot.sh', 'Cursor'])
    expect(rows()).toEqual(['b-old', 'b-new', 'c-old', 'c-new'])
  })

  it('rows show the question with its header as a chip beside it, and a count only for batches', async () => {
    await renderInbox([
      makeAsk({ askId: 'one', agent: cursor, questions: question('Proceed with the deploy?', 'Proceed?') }),
      makeAsk({
        askId: 'batch',
        agent: cursor,
        questions: [...question('Which port?', 'Port'), { id: 'n', question: 'Name it?' }],
      }),
    ])
    const item = (askId: string) => screen.getAllByTestId('ask-item').find((row) => row.dataset.askId === askId)!
    expect(within(item('one')).getByTestId('ask-text').textContent).toBe('Proceed with the deploy?')
    expect(within(item('one')).getByTestId('ask-chip').textContent).toBe('Proceed?')
    expect(item('one').textContent).not.toContain('question')
    expect(item('batch').textContent).toContain('2 questions')
  })

  it('a row whose question has no text and no header says "(no question text)", as the card does', async () => {
    await renderInbox([
      makeAsk({ askId: 'blank', agent: cursor, questions: question('') }),
      makeAsk({ askId: 'spaces', agent: cursor, questions: question('  ') }),
    ])
    for (const row of screen.getAllByTestId('ask-item')) {
      expect(within(row).getByTestId('ask-text').textContent).toBe('(no question text)')
      expect(within(row).queryByTestId('ask-chip')).toBeNull()
    }
  })

  // Their size against the rows is measured in Chromium (test/e2e/agent-groups.spec.ts).
  it('agent names are headings that say they are self-declared', async () => {
    await renderInbox([makeAsk({ agent: cursor })])
    const [heading] = headings()
    expect(heading!.tagName).toBe('H2')
    expect(heading!.getAttribute('title')).toBe('The agent gives this name itself; it is not verified')
  })
})

describe('dismissing one agent’s asks', () => {
  it('confirms with the count and dismisses exactly the asks it counted; one arriving meanwhile stays', async () => {
    const { bridge, user } = await renderInbox([
      makeAsk({ askId: 'b1', agent: bot, receivedAt: now - 3_000 }),
      makeAsk({ askId: 'b2', agent: bot, receivedAt: now - 2_000 }),
      makeAsk({ askId: 'c1', agent: cursor, receivedAt: now - 1_000 }),
    ])
    const botGroup = screen.getAllByTestId('agent-group')[0]!
    await user.click(within(botGroup).getByRole('button', { name: 'Dismiss all 2 pending from deploy-bot.sh' }))
    const confirm = screen.getByTestId('dismiss-agent-confirm')
    expect(confirm.textContent).toContain('Dismiss the 2 pending from deploy-bot.sh?')
    // The safe choice has the focus.
    expect(document.activeElement?.textContent).toBe('Keep them')
    await bridge.emit({ type: 'ask/added', ask: makeAsk({ askId: 'b3', agent: bot, receivedAt: now }) })
    await user.click(within(confirm).getByRole('button', { name: 'Dismiss 2' }))
    expect(bridge.dismissed).toEqual(['b1', 'b2'])
    expect(screen.queryByTestId('dismiss-agent-confirm')).toBeNull()
  })

  it('Keep them, or Esc, dismisses nothing', async () => {
    const { bridge, user } = await renderInbox([
      makeAsk({ askId: 'b1', agent: bot }),
      makeAsk({ askId: 'b2', agent: bot }),
    ])
    await user.click(screen.getByTestId('dismiss-agent'))
    await user.click(screen.getByRole('button', { name: 'Keep them' }))
    await user.click(screen.getByTestId('dismiss-agent'))
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('dismiss-agent-confirm')).toBeNull()
    expect(bridge.dismissed).toEqual([])
  })
})

describe('notices', () => {
  const notice = (noticeId: string, agent: InboxNotice['agent'], receivedAt: number): InboxNotice => ({
    noticeId,
    agent,
    notice: { kind: 'needs-input', text: 'Waiting for your input' },
    receivedAt,
  })

  it('say how long ago, clear together, and open the agent’s oldest pending ask, else the history', async () => {
    const { bridge, user, store } = await renderInbox([
      makeAsk({ askId: 'c1', agent: cursor, receivedAt: now - 9_000 }),
      makeAsk({ askId: 'c2', agent: cursor, receivedAt: now - 5_000 }),
      makeAsk({ askId: 'b1', agent: bot, receivedAt: now - 20_000 }),
    ])
    await bridge.emit({ type: 'notice/added', notice: notice('n1', { ...cursor, pid: 9 }, now - 180_000) })
    await bridge.emit({ type: 'notice/added', notice: notice('n2', { name: 'Codex', cwd: '/x' }, now - 30_000) })
    const items = screen.getAllByTestId('notice')
    // The window's clock ticks on its own (relative to when it last ticked): the units are what matter.
    const times = items.map((item) => item.querySelector('time')?.textContent)
    expect(times[0]).toMatch(/^[1-9][0-9]?s ago$/)
    expect(times[1]).toMatch(/^[23] min ago$/)
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('b1')
    await user.click(within(items[1]!).getByTestId('notice-open'))
    expect(screen.getByTestId('ask-view').dataset.askId).toBe('c1')
    await user.click(within(items[0]!).getByTestId('notice-open'))
    expect(store.view).toBe('history')
    await user.click(screen.getByRole('button', { name: 'Inbox' }))
    await user.click(screen.getByTestId('notices-clear-all'))
    expect(bridge.clearedNotices).toEqual(['n1', 'n2'])
  })
})
