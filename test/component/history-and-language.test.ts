import { cleanup, screen, within } from '@testing-library/svelte'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { I18n, i18n, langFromNavigator } from '../../renderer/src/i18n/i18n.svelte'
import { en, zh } from '../../renderer/src/i18n/messages'
import type { HistoryEntry } from '../../shared/ask'
import { makeAsk } from './fake-bridge'
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
        { id: 'targets', question: 'What should I update?', multi_select: true, options: [{ label: 'tests' }, { label: 'docs' }] },
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
    await bridge.emit({ type: 'question/resolved', askId: 'elsewhere', outcome: 'answered' })
    expect(bridge.historyRequests).toEqual([200, 200])
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
