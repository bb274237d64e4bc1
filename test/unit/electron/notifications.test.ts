// Notifications: one per ask, grouped in a burst, none under Do not disturb (fake timers, no sockets).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../shared'
import type { Settings } from '../../../shared'
import { askNotificationText, controlsText, truncate } from '../../../electron/main/notification-text'
import { askMenuLabel } from '../../../electron/main/tray-menu'
import { setupNotifications } from '../../../electron/main/notifications'
import { stringsFor } from '../../../electron/main/strings'
import { asElectron, FakeNotification, resetFakeElectron } from './fake-electron'
import { makeAsk, ScriptedCompanion } from './helpers'

let settings: Settings
let companion: ScriptedCompanion
let focused: boolean
let shown: string | undefined
let clicked: string[]
let stop: () => void

function start(language: Settings['language'] = 'en'): void {
  stop = setupNotifications({
    Notification: asElectron(FakeNotification, 'typeof Notification'),
    companion,
    platform: 'linux', // no answer controls: the grouping rules alone (notification-actions.test.ts has the rest)
    settings: () => settings,
    strings: () => stringsFor(language, 'en-US'),
    windowFocused: () => focused,
    shownAskId: () => shown,
    onClick: (askId) => void clicked.push(askId),
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  resetFakeElectron()
  settings = { ...DEFAULT_SETTINGS }
  companion = new ScriptedCompanion()
  focused = false
  shown = undefined
  clicked = []
})
afterEach(() => {
  stop()
  vi.useRealTimers()
})

describe('notifications', () => {
  it('shows one notification per ask: agent name, header and question; a click opens the ask', () => {
    start()
    const ask = makeAsk('Claude Code', 'Which database should we use?')
    companion.add(ask)
    expect(FakeNotification.instances).toHaveLength(0)
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances.map((n) => [n.options, n.shown])).toEqual([
      [{ title: 'Claude Code', body: 'Database: Which database should we use?', silent: false }, true],
    ])
    FakeNotification.instances[0]!.emit('click')
    expect(clicked).toEqual([ask.askId])

    vi.advanceTimersByTime(5_000)
    companion.add(makeAsk('Codex'))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances).toHaveLength(2)
  })

  it('groups a burst into one notification: "3 questions from 2 agents"', () => {
    start()
    const first = makeAsk('Claude Code')
    companion.add(first)
    vi.advanceTimersByTime(400)
    companion.add(makeAsk('Claude Code', 'Tabs or spaces?', { agent: first.agent }))
    vi.advanceTimersByTime(400)
    companion.add(makeAsk('Codex'))
    vi.advanceTimersByTime(700)
    expect(FakeNotification.instances.map((n) => n.options)).toEqual([
      { title: 'Ask User Companion', body: '3 questions from 2 agents', silent: false },
    ])
    FakeNotification.instances[0]!.emit('click')
    expect(clicked).toEqual([first.askId])
  })

  it('groups in Chinese when the language is zh', () => {
    start('zh')
    companion.add(makeAsk('A'))
    companion.add(makeAsk('B'))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances[0]!.options.body).toBe('来自 2 个代理的 2 个问题')
  })

  it('leaves out an ask settled before its notification was due', () => {
    start()
    const ask = makeAsk('Claude Code')
    companion.add(ask)
    companion.resolve(ask.askId, 'aborted')
    vi.advanceTimersByTime(2_000)
    expect(FakeNotification.instances).toEqual([])
  })

  it('shows none under Do not disturb or with notifications off', () => {
    start()
    settings = { ...settings, doNotDisturb: true }
    companion.add(makeAsk('A'))
    vi.advanceTimersByTime(2_000)
    settings = { ...settings, doNotDisturb: false, notifications: false }
    companion.add(makeAsk('B'))
    vi.advanceTimersByTime(2_000)
    expect(FakeNotification.instances).toEqual([])
  })

  it('notifies while a focused window has not reported what it shows yet (loading, reloading, crashed)', () => {
    start()
    focused = true
    shown = undefined
    companion.add(makeAsk('Claude Code'))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['Claude Code'])
  })

  it("notifies when the focused window's reported ask was settled meanwhile, even for the same agent", () => {
    start()
    const onScreen = makeAsk('Claude Code')
    companion.add(onScreen)
    vi.advanceTimersByTime(1500)
    focused = true
    shown = onScreen.askId
    companion.resolve(onScreen.askId, 'answered')
    companion.add(makeAsk('Claude Code', 'Tabs or spaces?', { agent: onScreen.agent }))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['Claude Code', 'Claude Code'])
  })

  it('in a focused window, is quiet only about the agent whose ask is on screen', () => {
    start()
    const onScreen = makeAsk('Claude Code')
    companion.add(onScreen) // not focused yet: notifies
    vi.advanceTimersByTime(1500)
    focused = true
    shown = onScreen.askId
    companion.add(makeAsk('Claude Code', 'Tabs or spaces?', { agent: onScreen.agent })) // same agent: quiet
    vi.advanceTimersByTime(1500)
    companion.add(makeAsk('Codex', 'Deploy now?')) // another agent: notifies
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['Claude Code', 'Codex'])
  })

  it('counts two sessions of one tool as two agents, as the inbox groups them', () => {
    start()
    const first = makeAsk('Claude Code', 'Deploy?', { agent: { name: 'Claude Code', session: 'one' } })
    companion.add(first)
    companion.add(makeAsk('Claude Code', 'Tabs or spaces?', { agent: { ...first.agent, session: 'two' } }))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances[0]!.options.body).toBe('2 questions from 2 agents')
  })

  it('drops a held notification when Do not disturb is switched on before it is due', () => {
    start()
    companion.add(makeAsk('A'))
    settings = { ...settings, doNotDisturb: true }
    vi.advanceTimersByTime(2_000)
    expect(FakeNotification.instances).toEqual([])
  })

  it('is silent when the sound setting is off, and shows nothing where notifications are unsupported', () => {
    start()
    settings = { ...settings, sound: false }
    companion.add(makeAsk('A'))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances[0]!.options.silent).toBe(true)
    FakeNotification.supported = false
    companion.add(makeAsk('B'))
    vi.advanceTimersByTime(1500)
    expect(FakeNotification.instances).toHaveLength(1)
  })

  it('shows a notice at once (the agent waits for input), with nothing to answer; a click opens the window', () => {
    let opened = 0
    stop = setupNotifications({
      Notification: asElectron(FakeNotification, 'typeof Notification'),
      companion,
      platform: 'darwin',
      settings: () => settings,
      strings: () => stringsFor('en', 'en-US'),
      windowFocused: () => focused,
      shownAskId: () => shown,
      onClick: (askId) => void clicked.push(askId),
      onOpen: () => void (opened += 1),
    })
    const notice = {
      noticeId: 'n1',
      agent: { name: 'Claude Code' },
      notice: { kind: 'needs-input' as const, text: 'Claude needs your **permission** to use Bash' },
      receivedAt: 1,
    }
    companion.notice(notice)
    expect(
      FakeNotification.instances.map((n) => [
        n.options.title,
        n.options.body,
        n.options.actions,
        n.options.hasReply,
        n.shown,
      ]),
    ).toEqual([['Claude Code', 'Claude needs your permission to use Bash', undefined, undefined, true]])
    FakeNotification.instances[0]!.emit('click')
    expect([opened, clicked]).toEqual([1, []])

    settings = { ...settings, doNotDisturb: true }
    companion.notice({ ...notice, noticeId: 'n2' })
    expect(FakeNotification.instances).toHaveLength(1)
  })
})

describe('notification text', () => {
  it('cuts the body at 120 characters with an ellipsis and collapses whitespace', () => {
    const long = 'x'.repeat(200)
    const text = askNotificationText(makeAsk('A', long, { questions: [{ id: 'q', question: long }] }))
    expect(Array.from(text.body)).toHaveLength(120)
    expect(text.body.endsWith('…')).toBe(true)
    expect(truncate('a\n\n b   c', 120)).toBe('a b c')
    expect(truncate('问'.repeat(130), 120)).toBe('问'.repeat(119) + '…')
  })

  it("shows the plain text of the question's inline Markdown, hidden characters as markers (the tray removes them)", () => {
    const ask = makeAsk('Cl\u202Eaude', 'Deploy `main` to **prod**\u200B? See [runbook](https://x.y)', {
      questions: [
        { id: 'q', header: 'Rel\u200Fease', question: 'Deploy `main` to **prod**\u200B? See [runbook](https://x.y)' },
      ],
    })
    expect(askNotificationText(ask)).toEqual({
      title: 'Cl⟨U+202E⟩aude',
      body: 'Rel⟨U+200F⟩ease: Deploy main to prod⟨U+200B⟩? See runbook',
    })
    expect(askMenuLabel(ask)).toBe('Claude — Release')
    // a button label that reorders text cannot pass for another: its marker shows; the placeholder is plain text
    expect(controlsText({ kind: 'buttons', labels: ['Y\u202Ees', 'No'] })).toEqual({ buttons: ['Y⟨U+202E⟩es', 'No'] })
    expect(controlsText({ kind: 'reply', question: 'Name the **branch**\u200B' })).toEqual({
      buttons: [],
      placeholder: 'Name the branch⟨U+200B⟩',
    })
    expect(askMenuLabel({ ...ask, questions: [{ id: 'q', question: '*Pick* `one`' }] })).toBe('Claude — Pick one')
  })
})
