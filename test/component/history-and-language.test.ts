import { cleanup, screen, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { I18n, i18n, langFromNavigator } from '../../renderer/src/i18n/i18n.svelte'
import { en } from '../../renderer/src/i18n/messages'
import { zh } from '../../renderer/src/i18n/messages-zh'
import type { ApprovalDecision } from '../../shared/approval'
import type { HistoryEntry, QuestionHistoryEntry } from '../../shared/ask'
import { makeApproval, makeAsk } from './fake-bridge'
import { renderInbox } from './setup'

beforeEach(() => sessionStorage.clear())
afterEach(() => {
  cleanup()
  i18n.lang = 'en'
})

describe('history', () => {
  it('asks the companion for history and shows outcome and answer', async () => {
    const { bridge, user } = await renderInbox([])
    await user.click(screen.getByRole('button', { name: 'History' }))
    expect(bridge.historyRequests).toEqual([200])
    expect(screen.getByText('Loading history…')).toBeTruthy()
    const base = makeAsk({
      questions: [
        {
          id: 'targets',
          question: 'What should I update?',
          multi_select: true,
          options: [{ label: 'tests' }, { label: 'docs' }],
        },
        { id: 'notes', question: 'Notes?' },
      ],
    })
    const entries: HistoryEntry[] = [
      {
        ...base,
        askId: 'h1',
        outcome: 'answered',
        settledAt: Date.now(),
        answers: [
          { id: 'targets', selected: ['tests', 'docs'], custom: 'release notes' },
          { id: 'notes', selected: [] },
        ],
      },
      { ...base, askId: 'h2', outcome: 'cancelled', settledAt: Date.now() - 1000 },
    ]
    await bridge.emit({ type: 'history', entries })
    const items = screen.getAllByTestId('history-entry')
    expect(items.map((item) => item.dataset.outcome)).toEqual(['answered', 'cancelled'])
    expect(within(items[0]!).getByText('Answered')).toBeTruthy()
    expect(within(items[0]!).getByText('tests, docs, “release notes”')).toBeTruthy()
    expect(within(items[0]!).getByText('skipped')).toBeTruthy()
    expect(within(items[1]!).getByText('Dismissed')).toBeTruthy()
    // a dismissed ask lists its questions, with no lone "—" for the answer it never had
    expect(items[1]!.textContent).not.toContain('—')
    expect(within(items[1]!).getByTestId('history-unanswered').textContent).toBe('What should I update?Notes?')
    await bridge.emit({ type: 'ask/settled', askId: 'elsewhere', outcome: 'answered' })
    expect(bridge.historyRequests).toEqual([200, 200])
  })

  it('an empty question with no header reads "(no question text)" in its heading, not a blank line', async () => {
    const { bridge, user } = await renderInbox([])
    await user.click(screen.getByRole('button', { name: 'History' }))
    const blank = makeAsk({ questions: [{ id: 'q', question: '' }] })
    await bridge.emit({ type: 'history', entries: [{ ...blank, outcome: 'aborted', settledAt: Date.now() }] })
    expect(screen.getByTestId('history-summary').textContent).toBe('(no question text)')
  })

  it('has no Refresh button: it follows the companion live', async () => {
    const { bridge, user } = await renderInbox([])
    await user.click(screen.getByRole('button', { name: 'History' }))
    await bridge.emit({ type: 'history', entries: [] })
    expect(within(screen.getByTestId('history-view')).queryAllByRole('button')).toEqual([])
    await bridge.emit({ type: 'ask/settled', askId: 'elsewhere', outcome: 'cancelled' })
    expect(bridge.historyRequests).toEqual([200, 200])
  })
})

describe('history of approvals', () => {
  const decided = (askId: string, decision: ApprovalDecision): HistoryEntry => ({
    ...makeApproval({ tool: 'Bash', action: { kind: 'command', command: 'npm test' } }),
    askId,
    outcome: 'decided',
    settledAt: Date.now(),
    decision,
  })

  it('badges each decision as the decision, never "Answered", in English and Chinese', async () => {
    const { bridge, user } = await renderInbox([])
    await user.click(screen.getByRole('button', { name: 'History' }))
    await bridge.emit({
      type: 'history',
      entries: [
        decided('d1', { behavior: 'deny', message: 'Keep the TTL' }),
        decided('d2', { behavior: 'allow' }),
        decided('d3', { behavior: 'allow', always: true }),
      ],
    })
    const badges = (): string[] => screen.getAllByTestId('history-badge').map((badge) => badge.textContent ?? '')
    expect(badges()).toEqual(['Denied', 'Allowed once', 'Always allowed'])
    expect(screen.getByTestId('history-decision').textContent).toBe('Keep the TTL')
    expect(screen.queryByText('Answered')).toBeNull()
    i18n.lang = 'zh'
    await tick()
    expect(badges()).toEqual(['已拒绝', '已允许一次', '已始终允许'])
    expect(screen.queryByText('已回答')).toBeNull()
  })
})

describe('history pages', () => {
  const entry = (n: number, extra: Partial<QuestionHistoryEntry> = {}): QuestionHistoryEntry => ({
    ...makeAsk({ questions: [{ id: 'q', question: `Question ${n}?` }] }),
    askId: `h${n}`,
    outcome: 'cancelled',
    settledAt: Date.now() - n * 1000,
    ...extra,
  })

  it('shows "Show older" while more follow, loads the next page below, and marks a shortened entry', async () => {
    const { bridge, user } = await renderInbox([])
    await user.click(screen.getByRole('button', { name: 'History' }))
    await bridge.emit({ type: 'history', entries: [entry(1), entry(2, { truncated: true })], more: true })
    expect(screen.getAllByTestId('history-entry')).toHaveLength(2)
    expect(screen.getByTestId('history-truncated').textContent).toBe(
      'Shortened in history: it was too long to keep whole.',
    )
    await user.click(screen.getByRole('button', { name: 'Show older' }))
    expect(bridge.historyBefore).toEqual([undefined, 'h2'])
    await bridge.emit({ type: 'history', entries: [entry(3), entry(4)], more: false })
    expect(screen.getAllByTestId('history-entry').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Question 1?'),
      expect.stringContaining('Question 2?'),
      expect.stringContaining('Question 3?'),
      expect.stringContaining('Question 4?'),
    ])
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull()
    // A settlement refreshes the newest page; the older pages loaded stay below it.
    await bridge.emit({ type: 'ask/settled', askId: 'h0', outcome: 'cancelled' })
    expect(bridge.historyBefore).toEqual([undefined, 'h2', undefined])
    await bridge.emit({ type: 'history', entries: [entry(0), entry(1)], more: true })
    expect(screen.getAllByTestId('history-entry')).toHaveLength(5)
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull()
  })

  it('says "Show older" in Chinese', async () => {
    const { bridge, user } = await renderInbox([])
    i18n.lang = 'zh'
    await tick()
    await user.click(screen.getByRole('button', { name: zh.viewHistory }))
    await bridge.emit({ type: 'history', entries: [entry(1)], more: true })
    expect(screen.getByRole('button', { name: zh.historyShowOlder })).toBeTruthy()
    expect(zh.historyShowOlder).not.toBe(en.historyShowOlder)
  })
})

describe('language', () => {
  it('starts from the host setting (?lang=) unless the person chose in this window', () => {
    const before = location.href
    try {
      localStorage.removeItem('ask-user.lang')
      history.replaceState(null, '', '/?lang=zh')
      expect(new I18n().lang).toBe('zh')
      history.replaceState(null, '', '/?lang=en')
      expect(new I18n().lang).toBe('en')
      localStorage.setItem('ask-user.lang', 'zh')
      expect(new I18n().lang).toBe('zh')
    } finally {
      localStorage.removeItem('ask-user.lang')
      history.replaceState(null, '', before)
    }
  })

  it('has every English message in Chinese', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
  })

  it('follows the browser language', () => {
    expect(langFromNavigator('zh-CN')).toBe('zh')
    expect(langFromNavigator('zh-Hant-TW')).toBe('zh')
    expect(langFromNavigator('en-US')).toBe('en')
    expect(langFromNavigator(undefined)).toBe('en')
  })

  it('switches to Chinese in the UI and remembers it', async () => {
    const { user } = await renderInbox([makeAsk()])
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'zh')
    expect(screen.getByRole('button', { name: '发送回答' })).toBeTruthy()
    expect(screen.getByTestId('pending-count').textContent).toBe('1 个待回答')
    expect(screen.getByText('推荐')).toBeTruthy()
    expect(document.documentElement.lang).toBe('zh-CN')
    expect(localStorage.getItem('ask-user.lang')).toBe('zh')
  })
})

describe('agent text is text', () => {
  it('renders markup in questions literally', async () => {
    const evil = '<img src=x onerror=window.__pwned=1><b>bold</b>'
    await renderInbox([makeAsk({ questions: [{ id: 'x', question: evil, options: [{ label: evil }] }] })])
    expect(screen.getAllByText(evil).length).toBeGreaterThan(0)
    expect(document.querySelector('img')).toBeNull()
    expect(document.querySelector('b')).toBeNull()
  })
})
